import AddContactFlow
import Expenses
import FlowKit
import Friends
import Primitives

/// Chooses whom an expense is shared with, among the user's friends and contacts: the ones in
/// their latest expenses first, filtered as they type. Someone not in the list can be added as
/// a new contact on the spot (AddContact) and is picked at once.
public actor PickCounterpartyFlow: InventoriedFlow {
    /// How choosing ended.
    public enum FlowResult: FlowOutcome {
        /// The people picked besides the user (none for a personal expense), in the list's order.
        case picked(people: [Friend])
        /// The user left after adding new contacts, which stay (each was confirmed on its own);
        /// the choice they had stays as it was.
        case left(added: [Friend])
        /// The user left; nothing was written, and the choice they had stays as it was.
        case cancelled

        public var status: FlowOutcomeStatus {
            switch self {
            case .picked: .completed
            case .left: .declined
            case .cancelled: .cancelled
            }
        }
    }

    /// What the flow needs from the app.
    public protocol Dependencies: AddContactFlow.Dependencies {
        var expenses: any ExpensesService { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: PickCounterpartyView(), for: PickCounterpartyViewModel.examples)
    }

    private let user: UserID
    private let picked: [Friend]
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<PickCounterpartyAction>

    /// The choice for `user`, starting with `picked` picked. Someone picked who is not among the
    /// user's friends (in an expense being edited) is listed too, so they can be kept.
    public init(user: UserID, picked: [Friend] = [], dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.picked = picked
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var model = await load()
        return await presenter.run(model.state) { action, view in
            switch action {
            case .picked(let ids):
                model.picked(ids)
            case .tapped(.done):
                if model.canFinish { return .picked(people: model.pickedFriends) }
            case .tapped(.newContact):
                if case .added(let contact) = await presenter.router.start(AddContactFlow(user: user, dependencies: dependencies, router: presenter.router)) {
                    model.added(contact)
                }
            case .cancel:
                return model.leaving
            }
            return nil
        }
    }

    /// The user's friends, in the order of their latest expenses. Without the order (the ledger
    /// failing) they come by name; without the friends, the screen says why.
    private func load() async -> PickCounterpartyViewModel {
        do throws(FriendsError) {
            let friends = try await dependencies.friends.friends(of: user)
            let recent = (try? await dependencies.expenses.recentPeople(of: user)) ?? []
            return PickCounterpartyViewModel(friends: friends, recent: recent, picked: picked)
        } catch {
            var model = PickCounterpartyViewModel(friends: [], recent: [], picked: [])
            model.failedToLoad(error)
            return model
        }
    }
}
