import Expenses
import FlowKit
import FlowTestSupport
import Foundation
import Primitives
import Sync
import SyncFlow
import Synchronization
import Testing

/// The Sync screen: what is not on the server yet, each write with what its author can do.
@Suite("SyncFlow")
struct SyncFlowTests {
    let fixture = Fixture()
    static let time = Date(timeIntervalSince1970: 1_800_000_000)

    /// A replica holding `writes`, syncing as `syncing` says, dropping and making again as asked.
    final class FakeReplica: ReplicaChanges {
        let kept: Mutex<[PendingWrite]>
        let statusKept: Mutex<ReplicaStatus>
        let syncing: @Sendable () -> Result<SyncReport, SyncError>
        let merged = Mutex<[String]>([])

        init(_ writes: [PendingWrite], status: ReplicaStatus, syncing: @escaping @Sendable () -> Result<SyncReport, SyncError>) {
            kept = Mutex(writes)
            statusKept = Mutex(status)
            self.syncing = syncing
        }

        func status(of user: UserID) async -> ReplicaStatus? { statusKept.withLock { $0 } }
        func writes(of user: UserID) async throws(SyncError) -> [PendingWrite] { kept.withLock { $0 } }
        func sync(for user: UserID) async -> Result<SyncReport, SyncError> {
            let result = syncing()
            if case .success = result {
                // What waited went; what the server did not take stays.
                kept.withLock { $0.removeAll { $0.outcome == nil } }
                statusKept.withLock { $0 = ReplicaStatus(lastSynced: SyncFlowTests.time.addingTimeInterval(600), offlineSince: nil) }
            }
            return result
        }
        func drop(_ key: String, for user: UserID) async throws(SyncError) -> Bool {
            kept.withLock { writes in
                guard let index = writes.firstIndex(where: { $0.key == key }), writes[index].outcome != nil else { return false }
                writes.remove(at: index)
                return true
            }
        }
        func applyMine(_ key: String, for user: UserID) async throws(ExpensesError) -> Expense? {
            guard kept.withLock({ writes in writes.contains { $0.key == key && $0.explanation != nil } }) else { return nil }
            kept.withLock { $0.removeAll { $0.key == key } }
            merged.withLock { $0.append(key) }
            throw .notFound(ExpenseID(rawValue: key))
        }
    }

    private static let writes = [
        PendingWrite(key: "k1", operation: "addExpense", summary: "add Taxi, 10.00 EUR", made: time, outcome: nil, reason: nil, explanation: nil),
        PendingWrite(
            key: "k2", operation: "addExpense", summary: "add Lunch, 12.00 EUR", made: time.addingTimeInterval(60), outcome: .refused,
            reason: "Not among your friends or contacts: Bob Stone.", explanation: nil
        ),
        PendingWrite(
            key: "k3", operation: "editExpense", summary: "change Team dinner, 30.00 EUR", made: time.addingTimeInterval(120), outcome: .conflict,
            reason: "It changed since you read it.",
            explanation: "Ada Lovelace changed Dinner while you were offline: the amount (30.00 EUR → 36.00 EUR). Yours: the description (Dinner → Team dinner)."
        ),
    ]

    private func start(_ replica: FakeReplica?) async throws -> FlowTest {
        let user = try await fixture.existingUser(signedIn: true)
        let dependencies = fixture.with { $0.replicaChanges = replica }
        return FlowTest { router in SyncFlow(user: user.id, dependencies: dependencies, router: router) }
    }

    @Test("lists each write with its state; the one refused says why and drops; syncing pushes what waits")
    func listsDropsAndSyncs() async throws {
        let replica = FakeReplica(Self.writes, status: ReplicaStatus(lastSynced: Self.time, offlineSince: Self.time.addingTimeInterval(30), waiting: 1, notSynced: 2)) {
            .success(SyncReport(push: PushReport(pushed: 1), pull: PullReport(pages: 1, changes: 3)))
        }
        let flow = try await start(replica)
        await flow.expectText("Last synced 2027-01-15 08:00. The server cannot be reached since 2027-01-15 08:00: what you change waits here until it can.")
        await flow.expectText("1 change waits for the server; 2 changes the server did not take: choose one to see why and what you can do.")
        await flow.expectText("Waiting: add Taxi, 10.00 EUR (made 2027-01-15 08:00)")
        // The first that asks something of the user is chosen: the refused one.
        await flow.expectText("[x] Not synced: add Lunch, 12.00 EUR (made 2027-01-15 08:01)")
        await flow.expectText("The server did not take it: Not among your friends or contacts: Bob Stone.")
        await flow.expectText("Actions: Drop it (drop) | Sync now (sync-now) | Back (back, cancel)")
        await flow.choose("change", "change-1")
        await flow.expectText("It goes to the server at the next sync.")
        await flow.expectText("Actions: Sync now (sync-now) | Back (back, cancel)")
        await flow.choose("change", "change-2")
        await flow.expectText("[x] Not synced: add Lunch, 12.00 EUR")
        await flow.tap("drop")
        await flow.expectText("Dropped add Lunch, 12.00 EUR: it will not be sent. What it changed here comes back as the server has it at the next sync.")
        await flow.expectText("[x] In conflict: change Team dinner, 30.00 EUR (made 2027-01-15 08:02)")
        await flow.tap("sync-now")
        await flow.expectText("Pushed 1 change. Pulled 3 changes: up to date.")
        await flow.expectText("Last synced 2027-01-15 08:10.")
        await flow.expectText("1 change the server did not take: choose one to see why and what you can do.")
        #expect(replica.kept.withLock { $0.map(\.key) } == ["k3"])
        await flow.tap("back")
        await flow.expectResult(SyncFlow.FlowResult.closed)
    }

    @Test("a conflict says both changes; keeping theirs drops it; a failed sync says why and keeps the list")
    func conflictKeepTheirs() async throws {
        let replica = FakeReplica(Array(Self.writes.suffix(1)), status: ReplicaStatus(lastSynced: Self.time, offlineSince: nil, notSynced: 1)) {
            .failure(.serverUnreachable("connection refused"))
        }
        let flow = try await start(replica)
        await flow.expectText("Ada Lovelace changed Dinner while you were offline: the amount (30.00 EUR → 36.00 EUR). Yours: the description (Dinner → Team dinner).")
        await flow.expectText("Actions: Keep theirs (keep-theirs) | Make mine again on top (apply-mine) | Sync now (sync-now) | Back (back, cancel)")
        await flow.tap("sync-now")
        await flow.expectText("The server cannot be reached: connection refused. What you changed waits here; the next sync sends it.")
        await flow.expectText("[x] In conflict: change Team dinner")
        await flow.tap("keep-theirs")
        await flow.expectText("Kept theirs: change Team dinner, 30.00 EUR is dropped.")
        await flow.expectText("All your changes are on the server.")
        await flow.expectText("Actions: Sync now (sync-now, primary) | Back (back, cancel)")
        await flow.tap("back")
        await flow.expectResult(SyncFlow.FlowResult.closed)
    }

    @Test("making mine again that the service refuses says the refusal, and the list is read again")
    func applyMineRefused() async throws {
        let replica = FakeReplica(Array(Self.writes.suffix(1)), status: ReplicaStatus(lastSynced: Self.time, offlineSince: nil, notSynced: 1)) {
            .success(SyncReport())
        }
        let flow = try await start(replica)
        await flow.expectText("[x] In conflict: change Team dinner, 30.00 EUR (made 2027-01-15 08:02) (change-1)")
        await flow.tap("apply-mine")
        await flow.expectText(ExpensesError.notFound(ExpenseID(rawValue: "k3")).message)
        #expect(replica.merged.withLock { $0 } == ["k3"])
        await flow.expectText("All your changes are on the server.")
        await flow.tap("back")
        await flow.expectResult(SyncFlow.FlowResult.closed)
    }

    @Test("on the embedded store there is nothing to sync, and the screen says so")
    func noReplica() async throws {
        let flow = try await start(nil)
        await flow.expectText("This machine keeps no copy of a server: what you do is written here at once, so there is nothing to sync.")
        await flow.expectText("Actions: Back (back, cancel)")
        await flow.tap("back")
        await flow.expectResult(SyncFlow.FlowResult.closed)
    }
}
