import AddContactFlow
import FlowKit
import Friends
import Groups
import Preferences
import Primitives

/// Makes a group: its name, its kind, its members (the user's friends and contacts, and new
/// contacts added on the way with AddContact), its currency and whether it simplifies debts.
/// The user is its first member.
public actor CreateGroupFlow: InventoriedFlow {
    /// How the form ended.
    public enum FlowResult: FlowOutcome {
        /// The group was made.
        case created(Group)
        /// The user left after adding new contacts, which stay (each was confirmed on its own);
        /// no group was made.
        case left(added: [Friend])
        /// The user left; nothing was written.
        case cancelled

        public var status: FlowOutcomeStatus {
            switch self {
            case .created: .completed
            case .left: .declined
            case .cancelled: .cancelled
            }
        }
    }

    /// What the flow needs from the app.
    public protocol Dependencies: AddContactFlow.Dependencies {
        var groups: any GroupsService { get }
        var preferences: any PreferencesService { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: CreateGroupView(), for: CreateGroupViewModel.examples)
    }

    private let user: UserID
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<FormAction<CreateGroupView>>

    public init(user: UserID, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        // Whom the user may add, and the currency they usually spend in; a failure leaves the
        // form without members to pick (and says why).
        let currency = (try? await dependencies.preferences.preferences(of: user).defaultCurrency) ?? Preferences.standard.defaultCurrency
        var model = CreateGroupViewModel(currency: currency)
        do throws(FriendsError) {
            model.loaded(try await dependencies.friends.friends(of: user))
        } catch {
            model.loadFailed(error.message)
        }
        var added: [Friend] = []
        let created = await presenter.runForm(model) { model throws(GroupsError) in
            try await dependencies.groups.create(model.draft, by: user)
        } tapped: { action, model in
            guard action == CreateGroupView.newContact,
                case .added(let contact) = await presenter.router.start(AddContactFlow(user: user, dependencies: dependencies, router: presenter.router))
            else { return }
            added.append(contact)
            model.added(contact)
        }
        if let created { return .created(created) }
        return added.isEmpty ? .cancelled : .left(added: added)
    }
}
