import Accounts
import FlowKit
import SignUpFlow

/// Signs in with an email and a password, or goes on to create an account (SignUp).
public actor SignInFlow: InventoriedFlow {
    /// Which screen the path opens with.
    public enum Start: Sendable {
        /// The sign-in form.
        case signIn
        /// Straight to creating an account; leaving it leaves the whole path.
        case signUp
    }

    /// How sign-in ended.
    public enum FlowResult: FlowOutcome {
        case signedIn(User)
        /// The user created an account instead, and is signed in with it.
        case signedUp(User)
        /// The user left; nothing was written.
        case cancelled
    }

    /// What the flow needs from the app: its own needs and those of SignUp, which it starts.
    public protocol Dependencies: SignUpFlow.Dependencies {
        var accounts: any AccountsService { get }
    }

    /// The flows this one can go on to: the View draws them as actions beside the form's.
    static let children = ChildMenu<SignInFlow, SignUpFlow.FlowResult>([
        .init("create-account", "Create an account") { flow in await flow.signUp() },
    ])

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: SignInView(), for: SignInViewModel.examples(children: children.actions))
    }

    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<SignInAction>
    private var router: AppRouter { presenter.router }
    private let start: Start
    private let notice: String?

    /// - Parameter notice: news for the sign-in screen, such as a session that expired.
    public init(dependencies: any Dependencies, router: AppRouter, start: Start = .signIn, notice: String? = nil) {
        self.dependencies = dependencies
        self.start = start
        self.notice = notice
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        if start == .signUp {
            return switch await signUp() {
            case .signedUp(let user): .signedUp(user)
            case .cancelled: .cancelled
            }
        }

        var model = SignInViewModel(children: Self.children.actions, notice: notice)
        return await presenter.run(model.state) { action, view in
            switch action {
            case .typed(let field, let text):
                model.typed(field, text)
            case .tapped(.submit):
                guard model.checkAll() else { break }
                let signedIn = await view.submit(&model) { model throws(AccountsError) in
                    try await dependencies.accounts.signIn(email: model.state.email.text, password: model.password.value)
                }
                if let signedIn { return .signedIn(signedIn) }
            case .open(let child):
                if case .signedUp(let user) = await Self.children.open(child, in: self) { return .signedUp(user) }
            case .cancel:
                return .cancelled
            }
            return nil
        }
    }

    private func signUp() async -> SignUpFlow.FlowResult {
        await router.start(SignUpFlow(dependencies: dependencies, router: router))
    }
}
