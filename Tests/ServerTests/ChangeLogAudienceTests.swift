import DataChanges
import DataChangesSQLite
import LocalStore
import Testing

/// The SQLite change log read for a person and the audiences of their groups at once
/// (docs/sync.md): every row of any of them, in the order written, a page at a time, and no
/// one else's.
struct ChangeLogAudienceTests {
    @Test("a person's rows and their groups' come together in the order written, a page at a time; another's never")
    func audience() async throws {
        let database = LocalDatabase(.memory, migrations: ChangeLogSchema.adding(to: { _ in }), keepsChangeLog: true)
        let log = SQLiteChangeLog(database: database)
        let people = ["ada", Change.audience(ofGroup: "trip"), "bob", Change.audience(ofGroup: "cabin")]
        // Rows of each, interleaved unevenly: 60 rows, every few someone else's.
        var written: [Change] = []
        for index in 0..<60 {
            written.append(Change(kind: .expense, id: "e\(index)", person: people[(index * 7 + index / 5) % people.count]))
        }
        for change in written { try await log.log([change]) }
        let audience = ["ada", Change.audience(ofGroup: "trip"), Change.audience(ofGroup: "cabin")]
        var position = LogPosition.start
        var read: [String] = []
        while true {
            let page = try await log.changes(for: audience, after: position, limit: 4)
            #expect(page.count <= 4)
            read += page.map(\.id)
            guard let last = page.last else { break }
            #expect(page.map(\.position) == page.map(\.position).sorted())
            position = last.position
        }
        let expected = written.filter { audience.contains($0.person) }.map(\.id)
        #expect(read == expected)
        #expect(expected.count > 30 && expected.count < 60, "some rows are Bob's")
        #expect(try await log.changes(for: "bob", after: .start, limit: 100).map(\.id) == written.filter { $0.person == "bob" }.map(\.id))
        #expect(try await log.changes(for: [], after: .start, limit: 100).isEmpty)
    }
}
