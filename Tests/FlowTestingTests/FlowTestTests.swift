import FlowKit
import FlowTestSupport
import FlowsApp
import SignInFlow
import SignUpFlow
import UnauthenticatedFlow
import Synchronization
import Testing

/// Runs `body`, which is meant to record issues, and returns them instead of failing the test.
private func recordedIssues(_ body: () async -> Void) async -> [Issue] {
    let issues = Mutex<[Issue]>([])
    await withKnownIssue {
        await body()
    } matching: { issue in
        issues.withLock { $0.append(issue) }
        return true
    }
    return issues.withLock { $0 }
}

extension Issue {
    /// What the issue says, its comments joined.
    fileprivate var text: String { comments.map(\.rawValue).joined(separator: "\n") }
}

@Suite("FlowTest, the Swift API")
struct FlowTestTests {
    private func flow(_ name: String, exhaustive: Bool = true) -> FlowTest {
        let container = AppContainer.inMemory()
        let entry = FlowCatalog.entry(named: name)
        return FlowTest(exhaustive: exhaustive) { router in await entry!.run(container: container, router: router) }
    }

    @Test("a failing step is recorded at that step's line, with expected and actual as a diff")
    func failureAtTheStep() async {
        let flow = flow("SignUp")
        await flow.expectScreen("sign-up")
        await flow.fill("email", "nope")
        var line = 0
        let issues = await recordedIssues {
            line = #line + 1
            await flow.expectError("email", "Something else.")
        }
        #expect(issues.count == 1)
        #expect(issues.first?.sourceLocation?.line == line)
        #expect(issues.first?.sourceLocation?.fileID == #fileID)
        #expect(issues.first?.text == """
            error on email differs
            - error on email: "Something else."
            + error on email: "Enter an email address like name@example.com."
            """)
        // The test goes on: the flow is still there, on the same screen.
        await flow.expectError("email", "Enter an email address like name@example.com.")
        await flow.cancel()
        #expect(await flow.result().status == .cancelled)
    }

    @Test("a screen that differs from the expected snapshot is shown as a unified diff")
    func snapshotDiff() async {
        let flow = flow("Unauthenticated")
        let issues = await recordedIssues {
            await flow.expectSnapshot("""
                == Welcome to Flows == [welcome]
                Share costs with friends and keep track of your own spending.
                  Actions: Sign in (sign-in, primary) | Quiz (quit, cancel)
                """)
        }
        #expect(issues.count == 1)
        #expect(issues.first?.text.contains("- " + "  Actions: Sign in (sign-in, primary) | Quiz (quit, cancel)") == true)
        #expect(issues.first?.text.contains("+ " + "  Actions: Sign in (sign-in, primary) | Create an account (create-account) | Quit (quit, cancel)") == true)
        await flow.tap("quit")
        #expect(await flow.result().name == "quit")
    }

    @Test("exhaustive by default: acting on a screen nobody looked at is recorded, and the action still goes")
    func exhaustive() async {
        let flow = flow("SignUp")
        await flow.expectScreen("sign-up")
        await flow.fill("email", "ada@example.com")
        let issues = await recordedIssues {
            await flow.fill("password", "correct horse")
        }
        #expect(issues.count == 1)
        #expect(issues.first?.text.contains("the screen sign-up was not looked at before fill(password, \"correct horse\"); expect it, or skipScreen() on purpose") == true)
        #expect(issues.first?.text.contains("Email (email, text): ada@example.com") == true)
        await flow.expectText("Password (password, secret; at least 8 characters): ********")
        await flow.cancel()
        #expect(await flow.result().name == "cancelled")
    }

    @Test("filling a form at once looks past the screens between the fields, not the one after")
    func fillForm() async {
        let flow = flow("SignUp")
        await flow.fill(["email": "ada@example.com", "password": "correct horse", "display-name": "Ada"])
        let issues = await recordedIssues { await flow.tap("create-account") }
        #expect(issues.map(\.text).first?.hasPrefix("the screen sign-up was not looked at before tap(create-account)") == true)
        #expect(await flow.result().name == "signed-up")
    }

    @Test("a step that does not fit names what the screen offers, and is not sent")
    func wrongIdentifier() async {
        let flow = flow("SignUp", exhaustive: false)
        let issues = await recordedIssues {
            await flow.tap("sign-in")
        }
        #expect(issues.map(\.text) == [
            """
            the screen sign-up has no action sign-in; the screen sign-up offers: fields email (text), \
            password (secret), display-name (text); actions create-account, cancel; back, cancel
            """,
        ])
        await flow.expectScreen("sign-up")
        await flow.cancel()
        #expect(await flow.result().status == .cancelled)
    }

    @Test("the wrong screen, a result asked for too early, a step after the end: each recorded, the run goes on")
    func goesOn() async {
        let flow = flow("SignUp")
        let wrongScreen = await recordedIssues { await flow.expectScreen("home") }
        #expect(wrongScreen.first?.text.hasPrefix("expected screen home, the flow shows sign-up\n- screen home\n+ screen sign-up") == true)
        let early = await recordedIssues { #expect(await flow.result().status == .cancelled) }
        #expect(early.map(\.text).first?.hasPrefix("the flow has not ended: it waits on sign-up") == true)
        let late = await recordedIssues { await flow.tap("create-account") }
        #expect(late.map(\.text) == ["the flow has already ended (cancelled)"])
    }

    @Test("a different result is shown as a diff of the two as JSON")
    func resultDiff() async {
        let flow = flow("Unauthenticated")
        await flow.expectScreen("welcome")
        await flow.tap("quit")
        let issues = await recordedIssues {
            await flow.expectResult(UnauthenticatedFlow.FlowResult.cancelled)
        }
        #expect(issues.map(\.text) == [
            """
            the result differs:
            --- expected result
            +++ result
            @@ line 1 of expected result @@
              {
            -   "result" : "cancelled"
            +   "result" : "quit"
              }
            """,
        ])
    }

    @Test("a child expected by its type does not run: the parent gets its result at once")
    func standIn() async {
        let flow = flow("SignIn")
        await flow.expectScreen("sign-in")
        await flow.expectChild(SignUpFlow.self, producing: .cancelled)
        await flow.tap("create-account")
        await flow.expectScreen("sign-in")
        await flow.cancel()
        #expect(await flow.result().status == .cancelled)
        #expect(await flow.presented == ["sign-in"])
        #expect(await flow.startedChildren == ["SignUpFlow"])
    }

    @Test("a child expected but never started is recorded at the line of the expectation")
    func unmetChild() async {
        let flow = flow("SignIn")
        var line = 0
        let issues = await recordedIssues {
            line = #line + 1
            await flow.expectChild(SignUpFlow.self, producing: .cancelled)
            await flow.expectScreen("sign-in")
            await flow.cancel()
            _ = await flow.result()
        }
        #expect(issues.map(\.text) == ["the flow never started the expected child SignUpFlow"])
        #expect(issues.first?.sourceLocation?.line == line)
    }
}
