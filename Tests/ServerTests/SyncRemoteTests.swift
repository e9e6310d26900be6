import AccountsData
import Expenses
import FlowsAPIClient
import FlowsApp
import FlowsServer
import Foundation
import Friends
import Primitives
import Sync
import SyncRemote
import Testing

/// A replica's pull over HTTP: what the server answers reads back, through the contract, as the
/// same values the other services give.
@Suite(.timeLimit(.minutes(2)))
struct SyncRemoteTests {
    @Test("a pull over HTTP reads back whole: the friend, the requests, an expense, a payment, and what was removed")
    func pullOverHTTP() async throws {
        try await LiveServer.onEachStore { server in
            let ada = try await RemoteServicesTests.app(server, name: "Ada")
            let bob = try await RemoteServicesTests.app(server, name: "Bob")
            _ = try await ada.container.friends.add(.email("bob@example.com"), by: ada.user.id)
            _ = try await bob.container.friends.accept(ada.user.id, by: bob.user.id)
            let bobs = bob.sync(server)

            let first = try await bobs.changes(for: bob.user.id, after: nil, limit: 500)
            let friend = try #require(try await bob.container.friends.friend(ada.user.id, of: bob.user.id))
            #expect(first.changes.contains(SyncChange(kind: .friend, id: ada.user.id.rawValue, value: .friend(friend))))
            #expect(first.changes.contains(SyncChange(kind: .requests, id: bob.user.id.rawValue, value: .requests(try await bob.container.friends.requests(of: bob.user.id)))))

            let dinner = try await ada.container.expenses.add(
                ExpenseDraft(
                    description: "Dinner", amount: Money(minorUnits: 3000, currency: .eur), day: try Day("2026-11-22"), category: .food,
                    payers: [Payer(user: ada.user.id, amount: Money(minorUnits: 3000, currency: .eur))], participants: [ada.user.id, bob.user.id],
                    rule: .equal
                ),
                by: ada.user.id
            )
            let payment = try await bob.container.expenses.settle(
                from: bob.user.id, to: ada.user.id, amount: Money(minorUnits: 1500, currency: .eur), day: try Day("2026-11-23"), by: bob.user.id
            )
            let comment = try await bob.container.expenses.comment("Was it 30?", on: dinner.id, by: bob.user.id)
            let next = try await bobs.changes(for: bob.user.id, after: first.cursor, limit: 500)
            let expenses = bob.container.expenses
            let synced = SyncedExpense(
                try #require(try await expenses.expense(dinner.id, for: bob.user.id)),
                // Who changed it when: a pull leaves out the expense each change left (its lines carry that).
                history: try await expenses.history(of: dinner.id, for: bob.user.id).map { ExpenseChange(kind: $0.kind, by: $0.by, at: $0.at, expense: nil) },
                comments: [comment]
            )
            #expect(!synced.history.isEmpty)
            // The expense as the contract carries it; Bob was in it from the start, so no line
            // of its history comes with it (his activity tells of each).
            let pulled = next.changes.first { $0.kind == .expense && $0.id == dinner.id.rawValue }?.value
            guard case .expense(let came)? = pulled else { Issue.record("the expense did not come: \(String(describing: pulled))"); return }
            #expect(SyncedExpense(came.expense, history: came.history, comments: came.comments) == synced)
            #expect(came.lines.isEmpty && !came.deleted)
            let recorded = SyncedPayment(payment, history: try await expenses.paymentHistory(of: payment.id, for: bob.user.id))
            #expect(next.changes.contains(SyncChange(kind: .payment, id: payment.id.rawValue, value: .payment(recorded))))
            #expect(try await bob.container.expenses.settlement(payment.id, for: bob.user.id) == payment)

            try await bob.container.expenses.undoSettlement(payment.id, by: bob.user.id)
            let last = try await bobs.changes(for: bob.user.id, after: next.cursor, limit: 500)
            #expect(last.changes.filter { $0.kind != .activity } == [SyncChange(kind: .payment, id: payment.id.rawValue, value: nil)])
            // The line that says it was taken back, whole, as the activity shows it.
            let lines = last.changes.compactMap { change -> ActivityLine? in if case .activity(let line)? = change.value { line } else { nil } }
            #expect(lines.map(\.activity.kind) == [.unsettled])
            #expect(lines.first?.payment == payment)
            #expect(try await bob.container.expenses.settlement(payment.id, for: bob.user.id) == nil)
            await #expect(throws: SyncError.invalidCursor) {
                try await bobs.changes(for: bob.user.id, after: SyncCursor("not-a-cursor"), limit: 10)
            }
        }
    }

    @Test("pulls without a cursor count against the user's limit; a pull with one does not")
    func firstPullLimit() async throws {
        let limits = RateLimits(failuresPerAccount: 1_000, failuresPerAddress: 1_000, signUpsPerAddress: 1_000, firstPullsPerUser: 2)
        try await LiveServer.with(limits: limits) { server in
            let bob = try await RemoteServicesTests.app(server, name: "Bob")
            let sync = bob.sync(server)
            let first = try await sync.changes(for: bob.user.id, after: nil, limit: 10)
            _ = try await sync.changes(for: bob.user.id, after: nil, limit: 10)
            do throws(SyncError) {
                _ = try await sync.changes(for: bob.user.id, after: nil, limit: 10)
                Issue.record("a third pull without a cursor was answered")
            } catch {
                guard case .tooManyFirstPulls(let seconds) = error else { throw error }
                #expect(seconds > 0)
            }
            // (What the second pull logged again comes after the first one's cursor.)
            #expect(try await sync.changes(for: bob.user.id, after: first.cursor, limit: 10).changes.allSatisfy { $0.id == bob.user.id.rawValue })
        }
    }
}
