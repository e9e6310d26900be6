import Accounts
import FlowKit

/// Changes the email the user signs in with: the new address, and the current password to show
/// it is them.
public actor UpdateEmailFlow: InventoriedFlow {
    /// How the change ended.
    public enum FlowResult: FlowOutcome {
        /// The email is changed; the user as they are now.
        case changed(User)
        /// The user left; nothing was written.
        case cancelled
    }

    /// What the flow needs from the app.
    public protocol Dependencies: Sendable {
        var accounts: any AccountsService { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory { FlowInventory(drawing: UpdateEmailView(), for: UpdateEmailViewModel.examples) }

    private let user: User
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<FormAction<UpdateEmailView>>

    public init(user: User, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        await presenter.runForm(UpdateEmailViewModel(current: user.email.value), ending: FlowResult.changed) { model throws(AccountsError) in
            try await dependencies.accounts.changeEmail(to: model.form.email, password: model.form.password, of: user.id)
        }
    }
}
