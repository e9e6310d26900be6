import Accounts
import FlowKit
import FlowTestSupport
import Foundation
import SessionsFlow
import Synchronization
import Testing

/// A leaf flow under Account: the user's sessions, ending one of the others or all of them.
@Suite("SessionsFlow")
struct SessionsFlowTests {
    let fixture = Fixture()

    /// Accounts holding `sessions` (this one first), ending them as asked.
    private func accounts(_ sessions: [SessionSummary], refusing refusal: AccountsError? = nil) -> FakeAccounts {
        let kept = Mutex(sessions)
        return FakeAccounts(
            sessions: { _ in kept.withLock { $0 } },
            endSession: { id, _ throws(AccountsError) in
                if let refusal { throw refusal }
                try kept.withLock { sessions throws(AccountsError) in
                    guard sessions.contains(where: { $0.id == id }) else { throw .noSuchSession }
                    sessions.removeAll { $0.id == id }
                }
            },
            endOtherSessions: { _ in kept.withLock { sessions in
                let ended = sessions.count(where: { !$0.isCurrent })
                sessions.removeAll { !$0.isCurrent }
                return ended
            } }
        )
    }

    private static let time = Date(timeIntervalSince1970: 1_800_000_000)
    private static func session(_ id: String, _ client: String, usedHoursAgo hours: Double, current: Bool = false) -> SessionSummary {
        SessionSummary(
            id: id, client: client, createdAt: time.addingTimeInterval(-86_400 * 3), lastUsedAt: time.addingTimeInterval(-hours * 3_600), isCurrent: current
        )
    }

    private let sessions = [
        session("aaaaaaaaaaaaaaaa", "flows on this machine", usedHoursAgo: 0, current: true),
        session("bbbbbbbbbbbbbbbb", "flows/0.1.0 (command line), through flows-server", usedHoursAgo: 2),
        session("cccccccccccccccc", "curl/8.5.0, through flows-server", usedHoursAgo: 30),
    ]

    private func start(_ accounts: FakeAccounts) async throws -> FlowTest {
        let user = try await fixture.existingUser(signedIn: true)
        let dependencies = fixture.with { $0.accounts = accounts }
        return FlowTest { router in SessionsFlow(user: user, dependencies: dependencies, router: router) }
    }

    @Test("this session is said first; the others are listed with what signed in and when; ending the chosen one leaves the rest")
    func endOne() async throws {
        let flow = try await start(accounts(sessions))
        await flow.expectText("This session: signed in 2027-01-12 08:00, last used 2027-01-15 08:00.")
        await flow.expectText("flows/0.1.0 (command line), through flows-server, signed in 2027-01-12 08:00, last used 2027-01-15 06:00")
        await flow.expectText("curl/8.5.0, through flows-server, signed in 2027-01-12 08:00, last used 2027-01-14 02:00")
        await flow.expectText("[x] flows/0.1.0 (command line)")
        await flow.choose("session", "cccccccccccccccc")
        await flow.expectText("[x] curl/8.5.0")
        await flow.tap("end")
        await flow.expectText("Ended the session of curl/8.5.0, through flows-server.")
        // The list is read again: the ended one has gone, the first other is chosen.
        await flow.tap("end")
        await flow.expectText("Ended the session of flows/0.1.0 (command line), through flows-server.")
        await flow.expectText("No other sessions: you are signed in here only.")
        await flow.tap("back")
        await flow.expectResult(SessionsFlow.FlowResult.ended(sessions: 2))
    }

    @Test("ending all others says how many; then there are none to end")
    func endOthers() async throws {
        let flow = try await start(accounts(sessions))
        await flow.expectText("Actions: End the chosen session (end) | End all other sessions (end-others) | Back (back, cancel)")
        await flow.tap("end-others")
        await flow.expectText("Ended 2 other sessions.")
        await flow.expectText("No other sessions: you are signed in here only.")
        await flow.tap("back")
        await flow.expectResult(SessionsFlow.FlowResult.ended(sessions: 2))
    }

    @Test("a refusal is the screen's error and nothing is counted as ended; leaving is cancelled")
    func refused() async throws {
        let flow = try await start(accounts(sessions, refusing: .storeUnavailable("disk on fire")))
        await flow.skipScreen()
        await flow.tap("end")
        await flow.expectError(nil, AccountsError.storeUnavailable("disk on fire").message)
        await flow.tap("back")
        await flow.expectResult(SessionsFlow.FlowResult.cancelled)
    }

    @Test("on the embedded store, the one session there is is this one")
    func embedded() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = FlowTest { [fixture] router in SessionsFlow(user: user, dependencies: fixture, router: router) }
        await flow.expectText("This session: signed in 2027-01-15 08:00")
        await flow.expectText("No other sessions: you are signed in here only.")
        await flow.tap("back")
        await flow.expectResult(SessionsFlow.FlowResult.cancelled)
    }
}
