import AccountFlow
import Accounts
import AuthenticatedFlow
import ExpensesFlow
import FlowKit
import FlowTestSupport
import Foundation
import Sync
import SyncFlow
import Testing

/// The home, tested exhaustively; its tabs are stood in for.
@Suite("AuthenticatedFlow")
struct AuthenticatedFlowTests {
    let fixture = Fixture()

    /// The home for `user`, whose Expenses tab (where it opens) is left at once.
    private func start(_ user: User, _ dependencies: (any AuthenticatedFlow.Dependencies)? = nil) async -> FlowTest {
        let flow = FlowTest { [fixture] router in AuthenticatedFlow(user: user, dependencies: dependencies ?? fixture, router: router) }
        await flow.expectChild(ExpensesFlow.self, producing: .closed)
        return flow
    }

    @Test("the home opens on the Expenses tab; back from it, the home shows its tabs")
    func opensOnExpenses() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = FlowTest { [fixture] router in AuthenticatedFlow(user: user, dependencies: fixture, router: router) }
        #expect(await flow.expectScreen("expenses")?.text.contains("No activity yet: add an expense.") == true)
        await flow.tap("back")
        #expect(await flow.expectScreen("home")?.tabs.map(\.id) == ["expenses", "groups", "friends", "account"])
        await flow.tap("quit")
        await flow.expectResult(AuthenticatedFlow.FlowResult.closed)
    }

    @Test("with a change the server did not take, the home says so and offers Sync; once all is synced, neither")
    func syncWhileNotSynced() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        let write = PendingWrite(key: "k", operation: "addExpense", summary: "add Taxi, 10.00 EUR", made: time, outcome: .refused, reason: "No.", explanation: nil)
        let replica = SyncFlowTests.FakeReplica([write], status: ReplicaStatus(lastSynced: time, offlineSince: nil, notSynced: 1)) { .success(SyncReport()) }
        let flow = await start(user, fixture.with { $0.replicaChanges = replica })
        await flow.expectText("1 change not synced: the server did not take it (Sync, on the home, says why).")
        await flow.expectText("Actions: Add an expense (add-expense) | Sync (sync) | Sign out (sign-out) | Quit (quit, cancel)")
        await flow.expectChild(SyncFlow.self, producing: .closed)
        // Sync answers it (the user drops it there): back from it, the home says nothing more.
        replica.kept.withLock { $0 = [] }
        replica.statusKept.withLock { $0 = ReplicaStatus(lastSynced: time, offlineSince: nil) }
        await flow.tap("sync")
        await flow.expectText("Actions: Add an expense (add-expense) | Sign out (sign-out) | Quit (quit, cancel)")
        await flow.tap("quit")
        await flow.expectResult(AuthenticatedFlow.FlowResult.closed)
        #expect(await flow.startedChildren == ["ExpensesFlow", "SyncFlow"])
    }

    @Test("shows who is signed in; sign out ends the session")
    func signOut() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = await start(user)
        await flow.expectText("Signed in as Ada Lovelace <ada@example.com>.")
        await flow.tap("sign-out")
        await flow.expectResult(AuthenticatedFlow.FlowResult.signedOut)
        #expect(try await fixture.accounts.currentUser() == nil)
        #expect(try fixture.rows().sessions == 0)
        // The screens took Ada's theme while she was home, and nobody's once she signed out.
        #expect(fixture.followed.users == [user.id, nil])
    }

    @Test("the Account tab starts AccountFlow; back from it, the home shows the user as they are now")
    func accountTab() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let renamed = try await fixture.accounts.changeDisplayName(to: "Countess Ada", of: user.id)
        let flow = await start(user)
        #expect(await flow.expectScreen("home")?.tabs.map(\.id) == ["expenses", "groups", "friends", "account"])
        await flow.expectChild(AccountFlow.self, producing: .closed(renamed))
        await flow.tap("account")
        await flow.expectText("Signed in as Countess Ada <ada@example.com>.")
        await flow.tap("quit")
        await flow.expectResult(AuthenticatedFlow.FlowResult.closed)
        #expect(await flow.startedChildren == ["ExpensesFlow", "AccountFlow"])
    }

    @Test("quit leaves the user signed in", arguments: [
        (UserEvent.tap("quit"), AuthenticatedFlow.FlowResult.closed), (.cancel, .cancelled),
    ])
    func quit(event: UserEvent, expected: AuthenticatedFlow.FlowResult) async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = await start(user)
        await flow.expectScreen("home")
        await flow.send(event)
        await flow.expectResult(expected)
        #expect(try await fixture.accounts.currentUser() == user)
        #expect(fixture.followed.users == [user.id])
    }

    @Test("back (Esc) at the home leaves nothing: the home stays and says how to leave")
    func backStays() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = await start(user)
        await flow.expectScreen("home")
        await flow.back()
        #expect(await flow.expectScreen("home")?.status == .notice("This is the home: Quit closes Flows (you stay signed in); Sign out ends your session."))
        await flow.tap("quit")
        await flow.expectResult(AuthenticatedFlow.FlowResult.closed)
    }

    @Test("a sign-out the store refuses shows the error and stays")
    func signOutFails() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = await start(user, Fixture.unavailable())
        await flow.expectScreen("home")
        await flow.tap("sign-out")
        await flow.expectError(nil, "The local store is unavailable: disk on fire")
        await flow.tap("quit")
        await flow.expectResult(AuthenticatedFlow.FlowResult.closed)
    }
}
