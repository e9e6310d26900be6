import Accounts
import FlowKit
import FlowTestSupport
import Synchronization
import Testing
import VerifyEmailFlow

/// A leaf flow under Account: the code mailed to the user's email proves it.
@Suite("VerifyEmailFlow")
struct VerifyEmailFlowTests {
    let fixture = Fixture()

    /// Accounts that sent `code` and take it for `tries` tries; each new code asked for is the
    /// next of `next`.
    private func accounts(verifying user: User, code: String, next: [String] = [], tries: Int = 5, mail: AccountsError? = nil) -> FakeAccounts {
        let state = Mutex((code: code, next: next, tries: tries))
        guard case .verified(let verified) = Self.verified(user) else { return FakeAccounts() }
        return FakeAccounts(
            sendVerificationCode: { _ throws(AccountsError) in
                if let mail { throw mail }
                state.withLock { state in
                    state.code = state.next.isEmpty ? state.code : state.next.removeFirst()
                    state.tries = 5
                }
            },
            verifyEmail: { typed, _ throws(AccountsError) in
                let outcome: AccountsError? = state.withLock { state in
                    guard state.tries > 0 else { return .codeExpired }
                    state.tries -= 1
                    return EmailVerificationPolicy.normalisedCode(typed) == state.code ? nil : .wrongCode(triesLeft: state.tries)
                }
                if let outcome { throw outcome }
                return verified
            }
        )
    }

    /// Ada, her email unverified.
    private func ada() async throws -> User {
        var user = try await fixture.existingUser(signedIn: true)
        user.emailVerified = false
        return user
    }

    private func start(_ user: User, _ accounts: FakeAccounts) -> FlowTest {
        let dependencies = fixture.with { $0.accounts = accounts }
        return FlowTest { router in VerifyEmailFlow(user: user, dependencies: dependencies, router: router) }
    }

    private static func verified(_ user: User) -> VerifyEmailFlow.FlowResult {
        var user = user
        user.emailVerified = true
        return .verified(user)
    }

    @Test("the screen says where the code went; a code not shaped like one is refused on the spot; a wrong one says the tries left; the right one verifies")
    func verify() async throws {
        let ada = try await ada()
        let flow = start(ada, accounts(verifying: ada, code: "246810"))
        await flow.expectText("Enter the code we sent to ada@example.com. A code is good for an hour.")
        await flow.fill("code", "12345")
        await flow.expectText("Code (code, text; 6 digits): 12345")
        await flow.tap("verify")
        await flow.expectText("A code is 6 digits, as in the message we sent.")
        await flow.fill("code", "135791")
        await flow.expectText("Code (code, text; 6 digits): 135791")
        await flow.tap("verify")
        await flow.expectText("That is not the code we sent; 4 tries left.")
        await flow.fill("code", "246 810")
        await flow.expectText("Code (code, text; 6 digits): 246 810")
        await flow.tap("verify")
        await flow.expectResult(Self.verified(ada))
    }

    @Test("tries used up: the code is no longer good; a new one is sent and works; mail that cannot go says so")
    func newCode() async throws {
        let ada = try await ada()
        let flow = start(ada, accounts(verifying: ada, code: "111111", next: ["222222"], tries: 1))
        await flow.expectText("Until then, friends cannot find you by your email.")
        await flow.fill("code", "000000")
        await flow.expectText("Code (code, text; 6 digits): 000000")
        await flow.tap("verify")
        await flow.expectText("That is not the code we sent, and it was the last try; ask for a new code.")
        await flow.fill("code", "111111")
        await flow.expectText("Code (code, text; 6 digits): 111111")
        await flow.tap("verify")
        await flow.expectText("That code is no longer good; ask for a new one.")
        await flow.tap("send-code")
        await flow.expectText("A new code is on its way to ada@example.com; the earlier one no longer works.")
        await flow.fill("code", "222222")
        await flow.expectText("Code (code, text; 6 digits): 222222")
        await flow.tap("verify")
        await flow.expectResult(Self.verified(ada))

        let down = start(ada, accounts(verifying: ada, code: "111111", mail: .mailUnavailable("the mail system is down")))
        await down.expectText("Actions: Verify (verify, primary) | Send a new code (send-code) | Back (back, cancel)")
        await down.tap("send-code")
        await down.expectText("The code could not be sent (the mail system is down); try again later.")
        await down.tap("back")
        await down.expectResult(VerifyEmailFlow.FlowResult.cancelled)
    }
}
