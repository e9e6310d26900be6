import Accounts
import FlowKit
import Friends

/// Adds a friend: the user chooses how (an account's friend code or email, or a new contact
/// without an account), types the one value, and confirms who was found before it is added.
public actor AddFriendFlow: InventoriedFlow {
    /// How adding ended.
    public enum FlowResult: FlowOutcome {
        /// The friend (an account or a contact) is added.
        case added(Friend)
        /// The user left; nothing was written.
        case cancelled
    }

    /// What the flow needs from the app.
    public protocol Dependencies: Sendable {
        var friends: any FriendsService { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: AddFriendView(), for: AddFriendViewModel.examples)
    }

    private let user: User
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<AddFriendAction>

    public init(user: User, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var model = AddFriendViewModel()
        return await presenter.run(model.state) { action, view in
            switch action {
            case .howChosen(let how):
                model.howChosen(how)
            case .valueChanged(let value):
                model.valueChanged(value)
            case .contactEmailChanged(let email):
                model.contactEmailChanged(email)
            case .find:
                guard model.check() else { break }
                model.busy()
                await view.show(model.state)
                await find(into: &model)
            case .confirm:
                guard model.state.found != nil else { break }
                model.busy()
                await view.show(model.state)
                if let added = await add(model: &model) { return .added(added) }
            case .back:
                // From the confirmation back to the form; from the form, out.
                guard model.state.found != nil else { return .cancelled }
                model.backToForm()
            case .cancel:
                return .cancelled
            }
            return nil
        }
    }

    /// Looks up the account the code or email names, or shows the contact to be made.
    private func find(into model: inout AddFriendViewModel) async {
        let state = model.state
        switch state.how {
        case .friendCode, .email:
            do throws(FriendsError) {
                let query: AccountQuery = state.how == .friendCode ? .friendCode(state.value.text) : .email(state.value.text)
                model.found(try await dependencies.friends.find(query, for: user.id), by: query)
            } catch {
                model.failed(error)
            }
        case .contact:
            model.contactReady()
        }
    }

    /// Adds who the confirmation showed; nil (with the refusal on the form) when it was refused.
    private func add(model: inout AddFriendViewModel) async -> Friend? {
        let state = model.state
        do throws(FriendsError) {
            switch state.how {
            case .friendCode: return try await dependencies.friends.add(.friendCode(state.value.text), by: user.id)
            case .email: return try await dependencies.friends.add(.email(state.value.text), by: user.id)
            case .contact:
                return try await dependencies.friends.addContact(name: state.value.text, email: state.contactEmail.text.isEmpty ? nil : state.contactEmail.text, by: user.id)
            }
        } catch {
            model.failed(error)
            return nil
        }
    }
}
