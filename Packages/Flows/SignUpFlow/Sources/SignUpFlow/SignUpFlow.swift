import Accounts
import FlowKit

/// Creates an account: email, password and display name, checked as they are typed; on success
/// the new account is signed in.
public actor SignUpFlow: InventoriedFlow {
    /// How sign-up ended.
    public enum FlowResult: FlowOutcome {
        /// The account exists and is signed in.
        case signedUp(User)
        /// The user left; no account was created.
        case cancelled
    }

    /// What the flow needs from the app.
    public protocol Dependencies: Sendable {
        var accounts: any AccountsService { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory { FlowInventory(drawing: SignUpView(), for: SignUpViewModel.examples) }

    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<FormAction<SignUpView>>

    public init(dependencies: any Dependencies, router: AppRouter) {
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        await presenter.runForm(SignUpViewModel(), ending: FlowResult.signedUp) { model throws(AccountsError) in
            try await dependencies.accounts.signUp(email: model.form.email, displayName: model.form.displayName, password: model.form.password)
        }
    }
}
