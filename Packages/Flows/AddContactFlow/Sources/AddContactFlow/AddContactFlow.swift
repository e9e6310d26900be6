import FlowKit
import Friends
import Primitives

/// Adds a contact: someone without an account, by name and, optionally, the email that links
/// them when they sign up. Started on the way by a flow that picks people (an expense's, a
/// group's), which then picks the new contact.
public actor AddContactFlow: InventoriedFlow {
    /// How adding ended.
    public enum FlowResult: FlowOutcome {
        /// The contact is added.
        case added(contact: Friend)
        /// The user left; nothing was written.
        case cancelled
    }

    /// What the flow needs from the app.
    public protocol Dependencies: Sendable {
        var friends: any FriendsService { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: AddContactView(), for: AddContactViewModel.examples)
    }

    private let user: UserID
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<FormAction<AddContactView>>

    public init(user: UserID, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        await presenter.runForm(AddContactViewModel(), ending: FlowResult.added) { model throws(FriendsError) in
            try await dependencies.friends.addContact(name: model.name, email: model.email, by: user)
        }
    }
}
