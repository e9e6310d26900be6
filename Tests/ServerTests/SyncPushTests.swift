import AccountsData
import Expenses
import FlowsAPIClient
import FlowsApp
@testable import FlowsServer
import Foundation
import Logging
import Friends
import Primitives
import Sync
import SyncLive
import SyncRemote
import Testing

/// A replica's push over HTTP: each operation applied as its own route would, as the user,
/// under its own key, and answered applied, refused or in conflict.
@Suite(.timeLimit(.minutes(2)))
struct SyncPushTests {
    private static func draft(_ units: Int, paidBy payer: UserID, among people: [UserID], description: String = "Lunch") -> [UInt8] {
        let participants = people.map { "\"\($0.rawValue)\"" }.joined(separator: ",")
        return Array(
            #"""
            {"description":"\#(description)","amount":{"minorUnits":\#(units),"currency":"EUR"},"day":"2026-11-21","category":"food","payers":[{"user":"\#(payer.rawValue)","amount":{"minorUnits":\#(units),"currency":"EUR"}}],"participants":[\#(participants)],"rule":{"mode":"equal"}}
            """#.utf8
        )
    }

    @Test("pushed writes are applied in order as their routes would, each once under its key; a refusal or a conflict stops none after it")
    func push() async throws {
        try await LiveServer.onEachStore { server in
            let ada = try await RemoteServicesTests.app(server, name: "Ada")
            let bob = try await RemoteServicesTests.app(server, name: "Bob")
            let cy = try await RemoteServicesTests.app(server, name: "Cy")
            _ = try await ada.container.friends.add(.email("bob@example.com"), by: ada.user.id)
            _ = try await bob.container.friends.accept(ada.user.id, by: bob.user.id)
            let dinner = try await ada.container.expenses.add(
                ExpenseDraft(
                    description: "Dinner", amount: Money(minorUnits: 3000, currency: .eur), day: try Day("2026-11-20"), category: .food,
                    payers: [Payer(user: ada.user.id, amount: Money(minorUnits: 3000, currency: .eur))], participants: [ada.user.id, bob.user.id],
                    rule: .equal
                ),
                by: ada.user.id
            )
            func sync(_ app: RemoteServicesTests.App) -> RemoteSyncService {
                app.sync(server)
            }
            let (bob_, ada_) = (bob.user.id, ada.user.id)
            let queue = [
                SyncOperation(key: "k-lunch", operation: "addExpense", body: Self.draft(1200, paidBy: bob_, among: [ada_, bob_])),
                // Made from a version that is no longer current: Ada's edit came first.
                SyncOperation(
                    key: "k-stale", operation: "editExpense", path: ["expenseId": dinner.id.rawValue],
                    body: Self.draft(3600, paidBy: ada_, among: [ada_, bob_], description: "Team dinner"), version: dinner.version
                ),
                SyncOperation(key: "k-empty", operation: "addContact", body: Array(#"{"name":"   "}"#.utf8)),
                SyncOperation(key: "k-read", operation: "listExpenses"),
                SyncOperation(key: "k-out", operation: "signOut"),
                SyncOperation(key: "k-names", operation: "listNames", body: Array(#"{"ids":["\#(ada_.rawValue)"]}"#.utf8)),
                SyncOperation(key: "k-email", operation: "changeEmail", body: Array(#"{"email":"robert@example.com","currentPassword":"correct horse"}"#.utf8)),
                SyncOperation(key: "k-path", operation: "deleteExpense", version: 1),
                SyncOperation(key: "k-pay", operation: "settleUp", body: Array(#"{"counterparty":"\#(ada_.rawValue)","paidBy":"me","amount":{"minorUnits":600,"currency":"EUR"},"day":"2026-11-22"}"#.utf8)),
            ]
            var edited = try await ada.container.expenses.expense(dinner.id, for: ada_)
            edited = try await ada.container.expenses.edit(try #require(edited), to: ExpenseDraft(
                description: "Dinner", amount: Money(minorUnits: 3300, currency: .eur), day: try Day("2026-11-20"), category: .food,
                payers: [Payer(user: ada_, amount: Money(minorUnits: 3300, currency: .eur))], participants: [ada_, bob_], rule: .equal
            ), by: ada_)

            let outcomes = try await sync(bob).push(queue, by: bob_)
            #expect(outcomes.map(\.key) == queue.map(\.key))
            #expect(outcomes.map(\.kind) == [.applied, .conflict, .refused, .refused, .refused, .refused, .refused, .refused, .applied])
            #expect(outcomes.map(\.status) == [201, 412, 422, 400, 400, 400, 400, 400, 201])
            let problems = outcomes.map { String(decoding: $0.answer ?? [], as: UTF8.self) }
            #expect(problems[1].contains(#""error":"changed-since""#) && problems[2].contains(#""error":"invalid-display-name-empty""#), "\(problems)")
            #expect(problems[3].contains("listExpenses is not an operation a push applies"), "\(problems[3])")
            #expect(problems[5].contains("listNames is not an operation a push applies"), "\(problems[5])")
            #expect(problems[6].contains("changeEmail is not an operation a push applies"), "\(problems[6])")
            #expect(problems[7].contains("The path parameter expenseId is missing."), "\(problems[7])")
            // Applied as Bob: the lunch is his, Ada sees it, and owes him for it.
            let lunch = try #require(try await ada.container.expenses.expenses(of: ada_, page: PageRequest()).first { $0.description == "Lunch" })
            #expect(lunch.payers.map(\.user) == [bob_])
            #expect(problems[0].contains(lunch.id.rawValue))

            // The same push again (its answer was lost): nothing applied twice, the same answers.
            let again = try await sync(bob).push(queue, by: bob_)
            #expect(again.map(\.kind) == outcomes.map(\.kind))
            #expect(again[0].answer == outcomes[0].answer && again[8].answer == outcomes[8].answer)
            #expect(try await ada.container.expenses.expenses(of: ada_, page: PageRequest()).filter { $0.description == "Lunch" }.count == 1)
            #expect(try await ada.container.expenses.settlements(of: ada_, page: PageRequest()).count == 1)

            // A stranger's push reaches nothing of theirs.
            let cys = try await sync(cy).push([SyncOperation(key: "k-cy", operation: "deleteExpense", path: ["expenseId": lunch.id.rawValue], version: lunch.version)], by: cy.user.id)
            #expect(cys.map(\.kind) == [.refused] && cys.map(\.status) == [404])
            #expect(try await ada.container.expenses.expense(lunch.id, for: ada_) != nil)

            await #expect(throws: SyncError.tooManyOperations(limit: 100)) {
                try await sync(bob).push((0...100).map { SyncOperation(key: "k\($0)", operation: "addContact", body: Array(#"{"name":"C\#($0)"}"#.utf8)) }, by: bob_)
            }
        }
    }

    /// Answers each operation by its key, and leaves one unanswered.
    private struct Answers: OperationApplier {
        let kinds: [String: SyncOutcome.Kind]
        func apply(_ operation: SyncOperation, by user: UserID) async -> SyncOutcome? {
            kinds[operation.key].map { SyncOutcome(key: operation.key, kind: $0, status: $0 == .applied ? 200 : 409, answer: nil) }
        }
    }

    @Test("a push answers up to the first operation that was not answered: it and the rest wait")
    func unanswered() async throws {
        let server = ServerServices.sqlite(.memory, fast: true)
        let sync = LiveSyncService(
            log: server.changeLog, expenses: server.expenses, lines: server.syncSource, friends: server.friends, groups: server.groups, accounts: server.accounts,
            names: server.names, preferences: server.preferences,
            operations: Answers(kinds: ["a": .applied, "b": .refused, "d": .applied])
        )
        let outcomes = try await sync.push(["a", "b", "c", "d"].map { SyncOperation(key: $0, operation: "addContact") }, by: UserID(rawValue: "u"))
        #expect(outcomes.map(\.key) == ["a", "b"])
        #expect(outcomes.map(\.kind) == [.applied, .refused])
    }

    @Test("a push's log line lists each operation as it was answered")
    func logLine() async throws {
        let file = try TemporaryLog()
        let logger = Logger(label: "flows-server") { label in LineLogHandler(label: label, output: file.output, level: .info) }
        let server = try await RunningServer.start(services: .sqlite(.memory, fast: true), logger: logger)
        do {
            let live = LiveServer(url: server.url, clock: TestClock())
            let ada = try await live.signUp("Ada")
            let push = #"{"operations":[{"key":"k-1","operation":"addContact","body":{"name":"Sam"}},{"key":"k-2","operation":"addContact","body":{"name":""}}]}"#
            #expect(try await live.raw("POST", "/sync/push", token: ada.token, json: push).status == 200)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        file.output.flush()
        let line = try #require(try file.lines().first { $0.contains("path=/sync/push") })
        #expect(line.contains(#"pushed="addContact 201, addContact 422 invalid-display-name-empty""#), "\(line)")
        #expect(line.contains(" info "), "\(line)")
    }
}
