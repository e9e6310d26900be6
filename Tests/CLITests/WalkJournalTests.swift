import FlowsApp
import Foundation
import Testing

@Suite("The walks in progress of flows test --explore")
struct WalkJournalTests {
    @Test("each walk's file holds its whole script after every step, a rewritten one too, and goes when the walk ends")
    func files() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("walk-journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = WalkJournal(folder: folder.path)
        let file = { (walk: String) in folder.appendingPathComponent("walk-in-progress-\(walk).flows").path }
        let read = { (walk: String) in (try? String(contentsOfFile: file(walk), encoding: .utf8)) ?? "(none)" }

        var script = "flow Note\n"
        journal.note("Note-1", script)
        journal.note("Note-2", "flow Other\n")
        #expect(read("Note-1") == script)
        for step in ["fill name Ada\n", "tap next\n", "cancel\n"] {
            script += step
            journal.note("Note-1", script)
            #expect(read("Note-1") == script)
        }
        // Not a longer version of what it holds: written whole again.
        journal.note("Note-1", "flow Note\ntap back\n")
        #expect(read("Note-1") == "flow Note\ntap back\n")
        journal.note("Note-1", nil)
        #expect(!FileManager.default.fileExists(atPath: file("Note-1")))
        #expect(read("Note-2") == "flow Other\n")
    }
}
