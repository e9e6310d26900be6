import Accounts
import AppFlow
import AuthenticatedFlow
import FlowKit
import SignInFlow
import SignUpFlow
import UnauthenticatedFlow

/// A flow the CLI can launch by name.
public struct FlowEntry: Sendable {
    public let name: String
    public let summary: String
    /// Made only when asked for (coverage), not on the way to a first screen.
    private let makeInventory: @Sendable () -> FlowInventory
    let run: @Sendable (AppContainer, AppRouter) async -> AnyFlowOutcome

    init(
        name: String,
        summary: String,
        inventory: @escaping @autoclosure @Sendable () -> FlowInventory,
        run: @escaping @Sendable (AppContainer, AppRouter) async -> AnyFlowOutcome
    ) {
        self.name = name
        self.summary = summary
        makeInventory = inventory
        self.run = run
    }

    /// What the flow's own screens can show, for coverage.
    public var inventory: FlowInventory { makeInventory() }

    /// Runs the flow with the container's services, drawing through `router`.
    public func run(container: AppContainer, router: AppRouter) async -> AnyFlowOutcome {
        await run(container, router)
    }
}

/// Every flow that can be launched on its own, in the order of the flow hierarchy.
public enum FlowCatalog {
    public static let entries: [FlowEntry] = [
        FlowEntry(name: "App", summary: "The whole app: your home if you are signed in, else the welcome", inventory: AppFlow.inventory) { container, router in
            AnyFlowOutcome(await AppFlow(accounts: container.accounts, router: router).perform())
        },
        FlowEntry(name: "Unauthenticated", summary: "The welcome: sign in, create an account, or quit", inventory: UnauthenticatedFlow.inventory) { container, router in
            AnyFlowOutcome(await UnauthenticatedFlow(accounts: container.accounts, router: router).perform())
        },
        FlowEntry(name: "SignIn", summary: "Sign in with your email and password, or create an account", inventory: SignInFlow.inventory) { container, router in
            AnyFlowOutcome(await SignInFlow(accounts: container.accounts, router: router).perform())
        },
        FlowEntry(name: "SignUp", summary: "Create an account and sign in with it", inventory: SignUpFlow.inventory) { container, router in
            AnyFlowOutcome(await SignUpFlow(accounts: container.accounts, router: router).perform())
        },
        FlowEntry(name: "Authenticated", summary: "Your home: who is signed in, and sign out (signs in first if needed)", inventory: AuthenticatedFlow.inventory) { container, router in
            await withSignedInUser(container: container, router: router) { user in
                AnyFlowOutcome(await AuthenticatedFlow(user: user, accounts: container.accounts, router: router).perform())
            } cancelled: {
                AnyFlowOutcome(AuthenticatedFlow.FlowResult.cancelled)
            }
        },
    ]

    /// The entry with this name, compared without case.
    public static func entry(named name: String) -> FlowEntry? {
        entries.first { $0.name.lowercased() == name.lowercased() }
    }

    /// Runs `body` with the signed-in user; when nobody is signed in, runs SignIn first.
    private static func withSignedInUser(
        container: AppContainer,
        router: AppRouter,
        body: (User) async -> AnyFlowOutcome,
        cancelled: () -> AnyFlowOutcome
    ) async -> AnyFlowOutcome {
        let stored: User?
        do {
            stored = try await container.accounts.currentUser()
        } catch {
            return AnyFlowOutcome(LaunchOutcome.failed(error.message))
        }
        if let stored { return await body(stored) }
        switch await SignInFlow(accounts: container.accounts, router: router).perform() {
        case .signedIn(let user), .signedUp(let user): return await body(user)
        case .cancelled: return cancelled()
        }
    }
}

/// The result of a launch that failed before its flow could start.
enum LaunchOutcome: FlowOutcome {
    case failed(String)
    case cancelled

    var name: String {
        switch self {
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }

    var status: FlowOutcomeStatus {
        switch self {
        case .failed: .failed
        case .cancelled: .cancelled
        }
    }

    var failureReason: String? {
        if case .failed(let message) = self { message } else { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: OutcomeCodingKey.self)
        try container.encode(name, forKey: .result)
        if case .failed(let message) = self { try container.encode(message, forKey: "error") }
    }
}
