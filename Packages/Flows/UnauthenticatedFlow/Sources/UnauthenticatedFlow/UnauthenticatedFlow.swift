import Accounts
import FlowKit
import SignInFlow

/// The welcome for someone who is not signed in: sign in, create an account, or quit.
public actor UnauthenticatedFlow: InventoriedFlow {
    /// How the welcome ended.
    public enum FlowResult: FlowOutcome {
        /// Someone is signed in now (with an account they had or one they just made).
        case authenticated(User)
        /// The user chose to quit without signing in.
        case quit
        case cancelled

        public var status: FlowOutcomeStatus {
            switch self {
            case .authenticated: .completed
            case .quit: .declined
            case .cancelled: .cancelled
            }
        }
    }

    /// What the flow needs from the app: the needs of SignIn, which it starts.
    public protocol Dependencies: SignInFlow.Dependencies {}

    /// The ways in, each a child flow: the View draws them as the welcome's actions.
    static let children = ChildMenu<UnauthenticatedFlow, SignInFlow.FlowResult>([
        .init("sign-in", "Sign in", role: .primary) { flow in await flow.signIn(start: .signIn) },
        .init("create-account", "Create an account") { flow in await flow.signIn(start: .signUp) },
    ])

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: UnauthenticatedView(), for: UnauthenticatedViewModel.examples(children: children.actions))
    }

    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<UnauthenticatedAction>
    private var router: AppRouter { presenter.router }
    private let notice: String?

    /// - Parameter notice: news for the welcome screen, such as a session that expired.
    public init(dependencies: any Dependencies, router: AppRouter, notice: String? = nil) {
        self.dependencies = dependencies
        self.notice = notice
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var model = UnauthenticatedViewModel(children: Self.children.actions, notice: notice)
        return await presenter.presenting(model.state) { view in
            while true {
                switch await view.next() {
                case .open(let child):
                    switch await Self.children.open(child, in: self) {
                    case .signedIn(let user), .signedUp(let user): return .authenticated(user)
                    case .cancelled, nil:
                        model.seen()
                        await view.show(model.state)
                    }
                case .tapped(.quit): return .quit
                case .cancel: return .cancelled
                }
            }
        }
    }

    private func signIn(start: SignInFlow.Start) async -> SignInFlow.FlowResult {
        await router.start(SignInFlow(dependencies: dependencies, router: router, start: start))
    }
}
