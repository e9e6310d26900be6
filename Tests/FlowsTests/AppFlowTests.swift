import Accounts
import AppFlow
import AuthenticatedFlow
import Expenses
import FlowKit
import Friends
import FlowTestSupport
import FlowsApp
import FlowsServices
import Foundation
import LocalStore
import Preferences
import Primitives
import Testing
import UnauthenticatedFlow

/// The root: its own screen (the store cannot be read) is tested exhaustively; Unauthenticated
/// and Authenticated, its children, are stood in for.
@Suite("AppFlow")
struct AppFlowTests {
    let fixture = Fixture()

    private func start(_ dependencies: (any AppFlow.Dependencies)? = nil) -> FlowTest {
        FlowTest { [fixture] router in AppFlow(dependencies: dependencies ?? fixture, router: router) }
    }

    @Test("with no stored session: the welcome; quitting there closes the app")
    func noSession() async throws {
        let flow = start()
        await flow.expectChild(UnauthenticatedFlow.self, producing: .quit)
        await flow.expectResult(AppFlow.FlowResult.closed(user: nil))
        #expect(await flow.startedChildren == ["UnauthenticatedFlow"])
        #expect(await flow.presented == [])
    }

    @Test("with a stored session: the home of that user, who stays signed in on quitting")
    func storedSession() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start()
        await flow.expectChild(AuthenticatedFlow.self, producing: .closed)
        await flow.expectResult(AppFlow.FlowResult.closed(user: user))
        #expect(await flow.startedChildren == ["AuthenticatedFlow"])
    }

    @Test("signed in on the welcome, signed out at home: back to the welcome, until quit")
    func fullCircle() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        try await fixture.accounts.signOut()
        let flow = start()
        await flow.expectChild(UnauthenticatedFlow.self, producing: .authenticated(user))
        await flow.expectChild(AuthenticatedFlow.self, producing: .signedOut)
        await flow.expectChild(UnauthenticatedFlow.self, producing: .quit)
        await flow.expectResult(AppFlow.FlowResult.closed(user: nil))
        #expect(await flow.startedChildren == ["UnauthenticatedFlow", "AuthenticatedFlow", "UnauthenticatedFlow"])
    }

    @Test("a stored session that expired: the welcome, saying why the user is signed out")
    func expiredSession() async throws {
        let flow = start(Fixture.unavailable().with { $0.accounts = FakeAccounts(storedSession: { .expired }) })
        await flow.expectText(StoredSession.expiredNotice)
        await flow.tap("quit")
        await flow.expectResult(AppFlow.FlowResult.closed(user: nil))
        #expect(await flow.startedChildren == ["UnauthenticatedFlow"])
    }

    @Test("a child cancelled cancels the app", arguments: [true, false])
    func cancel(signedIn: Bool) async throws {
        if signedIn { try await fixture.existingUser(signedIn: true) }
        let flow = start()
        if signedIn {
            await flow.expectChild(AuthenticatedFlow.self, producing: .cancelled)
        } else {
            await flow.expectChild(UnauthenticatedFlow.self, producing: .cancelled)
        }
        await flow.expectResult(AppFlow.FlowResult.cancelled)
    }

    @Test("a store that cannot be read gets its own screen: try again, or quit")
    func storeUnavailable() async throws {
        let flow = start(Fixture.unavailable())
        await flow.expectSnapshot("""
            == Flows cannot open your data == [app-unavailable]
            Nothing was changed. Check the folder named below (or FLOWS_HOME) and try again.
              Actions: Try again (retry, primary) | Quit (quit, cancel)
            Error: The local store is unavailable: disk on fire
            """)
        await flow.tap("retry")
        await flow.expectError(nil, "The local store is unavailable: disk on fire")
        await flow.tap("quit")
        await flow.expectResult(AppFlow.FlowResult.failed(error: "The local store is unavailable: disk on fire"))
        #expect(AppFlow.FlowResult.failed(error: "x").status == .failed)
        #expect(await flow.startedChildren == [])
    }

    @Test("a file store that becomes readable between two attempts: \"Try again\" opens it")
    func retryOnFileStore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flows-retry-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let location = StoreLocation(directory: directory)
        let user = try await Self.signUp(in: location)
        // The database moved away and a folder in its place: the store cannot be opened.
        let database = location.databaseFile
        let aside = directory.appendingPathComponent("aside.sqlite")
        try FileManager.default.moveItem(at: database, to: aside)
        try FileManager.default.createDirectory(at: database, withIntermediateDirectories: false)

        let flow = start(AppContainer.live(location: location))
        await flow.expectScreen("app-unavailable")
        await flow.expectText("The local store is unavailable")
        await flow.tap("retry")
        await flow.expectScreen("app-unavailable")

        try FileManager.default.removeItem(at: database)
        try FileManager.default.moveItem(at: aside, to: database)
        await flow.expectChild(AuthenticatedFlow.self, producing: .closed)
        await flow.tap("retry")
        await flow.expectResult(AppFlow.FlowResult.closed(user: user))
    }

    /// An account signed up on a file store, whose database is closed again on return.
    private static func signUp(in location: StoreLocation) async throws -> User {
        try await AppContainer.live(location: location).accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
    }
}
