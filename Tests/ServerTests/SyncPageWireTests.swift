import AccountsData
import Expenses
import FlowsAPI
import FlowsServer
import FlowsWire
import Foundation
import Friends
import Primitives
import Sync
import SyncRemote
import Testing

/// A page of a pull in the contract's form: each expense once, a line that left it as it is now
/// saying so (`sameExpense`) rather than carrying it again.
@Suite(.timeLimit(.minutes(1)))
struct SyncPageWireTests {
    /// Bob's first page: Dinner as it was added, Lunch added and then changed.
    private static func firstPage() async throws -> SyncPage {
        let server = ServerServices.sqlite(.memory, fast: true)
        let ada = try await server.sessions(InMemorySessionTokenStore()).signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        let bob = try await server.sessions(InMemorySessionTokenStore()).signUp(email: "bob@example.com", displayName: "Bob", password: "correct horse")
        _ = try await server.friends.befriend(.email("bob@example.com"), by: ada.id)
        func draft(_ description: String, _ minorUnits: Int64) throws -> ExpenseDraft {
            let amount = Money(minorUnits: minorUnits, currency: .eur)
            return ExpenseDraft(
                description: description, amount: amount, day: try Day("2026-11-22"), category: .food, payers: [Payer(user: ada.id, amount: amount)],
                participants: [ada.id, bob.id], rule: .equal
            )
        }
        _ = try await server.expenses.add(try draft("Dinner", 3000), by: ada.id)
        let lunch = try await server.expenses.add(try draft("Lunch", 1200), by: ada.id)
        _ = try await server.expenses.edit(lunch.id, to: try draft("Team lunch", 1800), from: lunch.version, by: ada.id)
        return try await server.sync.changes(for: bob.id, after: nil, limit: 500)
    }

    /// The page's lines of activity as the contract carries them, by their expense's description.
    private static func lines(in wire: Components.Schemas.SyncPage, of page: SyncPage) -> [(about: String, line: Components.Schemas.ActivityLine)] {
        let descriptions = Dictionary(uniqueKeysWithValues: page.changes.compactMap { change -> (String, String)? in
            guard case .expense(let synced)? = change.value else { return nil }
            return (change.id, synced.expense.description)
        })
        return wire.changes.compactMap { change in change.activity.map { (descriptions[$0.activity.subject] ?? "?", $0) } }
    }

    @Test func aLineThatLeftTheExpenseAsItIsNowSaysSo() async throws {
        let page = try await Self.firstPage()
        let bytes = try #require(try SyncAPI.pullChanges.response.write(page))
        let wire = try WireJSON.decoder.decode(Components.Schemas.SyncPage.self, from: bytes)
        let lines = Self.lines(in: wire, of: page)
        #expect(lines.count == 3)
        for (about, line) in lines {
            // Lunch as it was added is not Lunch now: that line carries it.
            let leftItAsItIs = about == "Dinner" || line.activity.kind == .edited
            #expect(line.sameExpense == (leftItAsItIs ? true : nil), "\(about), \(line.activity.kind)")
            #expect((line.expense == nil) == leftItAsItIs, "\(about), \(line.activity.kind)")
        }
        // Read back, each line has its expense again.
        let read = try SyncAPI.pullChanges.response.read(bytes)
        #expect(read.changes.count == page.changes.count)
        for change in read.changes {
            if case .activity(let line)? = change.value { #expect(line.expense != nil, "\(change.id)") }
        }
        // The page reads as it would with each expense spelled out again, which is larger.
        let repeated = try WireJSON.encode(
            Components.Schemas.SyncPage(
                changes: wire.changes.map { change in
                    var change = change
                    if var line = change.activity, line.sameExpense == true {
                        line.expense = wire.changes.first { $0.kind == .expense && $0.id == line.activity.subject }?.expense
                        line.sameExpense = nil
                        change.activity = line
                    }
                    return change
                },
                profiles: wire.profiles, cursor: wire.cursor, more: wire.more
            )
        )
        #expect(try SyncAPI.pullChanges.response.read(repeated) == read)
        #expect(bytes.count < repeated.count, "\(bytes.count) bytes against \(repeated.count)")
    }

    @Test func aLineNamingAnExpenseThePageDoesNotBringIsRefused() async throws {
        let page = try await Self.firstPage()
        let bytes = try #require(try SyncAPI.pullChanges.response.write(page))
        var wire = try WireJSON.decoder.decode(Components.Schemas.SyncPage.self, from: bytes)
        wire.changes.removeAll { $0.kind == .expense }
        #expect(throws: APIProblem.self) { try SyncAPI.pullChanges.response.read(try WireJSON.encode(wire)) }
    }
}
