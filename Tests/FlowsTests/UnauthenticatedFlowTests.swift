import Accounts
import FlowKit
import FlowTestSupport
import SignInFlow
import Testing
import UnauthenticatedFlow

/// A parent: the welcome is tested exhaustively; SignIn, its child, is stood in for.
@Suite("UnauthenticatedFlow")
struct UnauthenticatedFlowTests {
    let fixture = Fixture()

    static let welcome = """
        == Welcome to Flows == [welcome]
        Share costs with friends and keep track of your own spending.
          Actions: Sign in (sign-in, primary) | Create an account (create-account) | Quit (quit, cancel)
        """

    private func start() -> FlowTest {
        FlowTest { [fixture] router in UnauthenticatedFlow(dependencies: fixture, router: router) }
    }

    @Test("the welcome offers sign in, create an account and quit")
    func welcome() async throws {
        let flow = start()
        await flow.expectSnapshot(Self.welcome)
        await flow.tap("quit")
        await flow.expectResult(UnauthenticatedFlow.FlowResult.quit)
        #expect(UnauthenticatedFlow.FlowResult.quit.status == .declined)
        #expect(await flow.startedChildren == [])
    }

    @Test("after a session expired, the welcome says so once; back from a child, it is plain")
    func expiredNotice() async throws {
        let flow = FlowTest { [fixture] router in
            UnauthenticatedFlow(dependencies: fixture, router: router, notice: StoredSession.expiredNotice)
        }
        await flow.expectSnapshot(Self.welcome + "\n" + StoredSession.expiredNotice)
        await flow.expectChild(SignInFlow.self, producing: .cancelled)
        await flow.tap("sign-in")
        await flow.expectSnapshot(Self.welcome)
        await flow.tap("quit")
        await flow.expectResult(UnauthenticatedFlow.FlowResult.quit)
    }

    @Test("sign in and create an account each start SignIn; someone signed in there is authenticated", arguments: [
        ("sign-in", SignInFlow.FlowResult.signedIn), ("create-account", SignInFlow.FlowResult.signedUp),
    ] as [(ElementID, @Sendable (User) -> SignInFlow.FlowResult)])
    func signIn(action: ElementID, child: @Sendable (User) -> SignInFlow.FlowResult) async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start()
        await flow.expectScreen("welcome")
        await flow.expectChild(SignInFlow.self, producing: child(user))
        await flow.tap(action)
        await flow.expectResult(UnauthenticatedFlow.FlowResult.authenticated(user))
        #expect(await flow.startedChildren == ["SignInFlow"])
    }

    @Test("create an account goes straight to the sign-up form, over the welcome")
    func createAccountOpensSignUp() async throws {
        let flow = start()
        await flow.expectScreen("welcome")
        await flow.tap("create-account")
        #expect(await flow.expectScreen("sign-up")?.breadcrumb == ["Welcome to Flows"])
        await flow.cancel()
        await flow.expectScreen("welcome")
        await flow.cancel()
        await flow.expectResult(UnauthenticatedFlow.FlowResult.cancelled)
        #expect(await flow.presented == ["welcome", "sign-up"])
    }

    @Test("SignIn cancelled comes back to the welcome; cancel there writes nothing")
    func cancelFromChild() async throws {
        let flow = start()
        await flow.expectScreen("welcome")
        await flow.expectChild(SignInFlow.self, producing: .cancelled)
        await flow.tap("sign-in")
        await flow.expectScreen("welcome")
        await flow.expectChild(SignInFlow.self, producing: .cancelled)
        await flow.tap("create-account")
        await flow.expectScreen("welcome")
        await flow.back()
        await flow.expectResult(UnauthenticatedFlow.FlowResult.cancelled)
        #expect(await flow.startedChildren == ["SignInFlow", "SignInFlow"])
        #expect(try fixture.rows() == (0, 0))
    }
}
