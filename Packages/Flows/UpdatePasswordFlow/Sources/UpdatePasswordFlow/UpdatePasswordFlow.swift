import Accounts
import FlowKit

/// Changes the user's password: the current one, then the new one twice. On success every
/// other session of the user ends; this one stays.
public actor UpdatePasswordFlow: InventoriedFlow {
    /// How the change ended.
    public enum FlowResult: FlowOutcome {
        /// The password is changed and the user's other sessions have ended.
        case changed
        /// The user left; nothing was written.
        case cancelled
    }

    /// What the flow needs from the app.
    public protocol Dependencies: Sendable {
        var accounts: any AccountsService { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory { FlowInventory(drawing: UpdatePasswordView(), for: UpdatePasswordViewModel.examples) }

    private let user: User
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<FormAction<UpdatePasswordView>>

    public init(user: User, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        await presenter.runForm(UpdatePasswordViewModel(), ending: { FlowResult.changed }) { model throws(AccountsError) in
            try await dependencies.accounts.changePassword(from: model.form.current, to: model.form.new, of: user.id)
        }
    }
}
