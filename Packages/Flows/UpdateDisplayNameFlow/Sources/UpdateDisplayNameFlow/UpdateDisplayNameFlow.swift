import Accounts
import FlowKit

/// Changes the signed-in user's display name, under the sign-up rules for names.
public actor UpdateDisplayNameFlow: InventoriedFlow {
    /// How the change ended.
    public enum FlowResult: FlowOutcome {
        /// The name is changed; the user as they are now.
        case changed(User)
        /// The user left; nothing was written.
        case cancelled
    }

    /// What the flow needs from the app.
    public protocol Dependencies: Sendable {
        var accounts: any AccountsService { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: UpdateDisplayNameView(), for: UpdateDisplayNameViewModel.examples)
    }

    private let user: User
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<FormAction<UpdateDisplayNameView>>

    public init(user: User, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        await presenter.runForm(UpdateDisplayNameViewModel(current: user.displayName.value), ending: FlowResult.changed) { model throws(AccountsError) in
            try await dependencies.accounts.changeDisplayName(to: model.state.name.text, of: user.id)
        }
    }
}
