import Accounts
import FlowKit
import Friends
import Primitives

/// Adds a friend: the user chooses how (an account's friend code or email, or a new contact
/// without an account), types the one value, and confirms who was found: an account is sent a
/// friend request (accepted at once when they had asked first), a contact is added.
public actor AddFriendFlow: InventoriedFlow {
    /// How adding ended.
    public enum FlowResult: FlowOutcome {
        /// The friend is added: a contact, or an account that had asked the user first.
        case added(Friend)
        /// The account is asked; they become a friend when they accept.
        case requested(person: PublicProfile)
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
            case .tapped(.find):
                guard model.check() else { break }
                model.busy()
                await view.show(model.state)
                await find(into: &model)
            case .confirm:
                guard model.state.found != nil else { break }
                model.busy()
                await view.show(model.state)
                if let outcome = await add(model: &model) { return outcome }
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
                let account = try await dependencies.friends.find(query, for: user.id)
                // One who asked the user first is accepted by asking back: the confirmation says so.
                let asked = try await dependencies.friends.requests(of: user.id).incoming.contains { $0.person.id == account.id }
                model.found(account, by: query, askedFirst: asked)
            } catch {
                model.failed(error)
            }
        case .contact:
            model.contactReady()
        }
    }

    /// Asks or adds who the confirmation showed; nil (with the refusal on the form) when it was
    /// refused.
    private func add(model: inout AddFriendViewModel) async -> FlowResult? {
        let state = model.state
        do throws(FriendsError) {
            let addition: FriendAddition
            switch state.how {
            case .friendCode: addition = try await dependencies.friends.add(.friendCode(state.value.text), by: user.id)
            case .email: addition = try await dependencies.friends.add(.email(state.value.text), by: user.id)
            case .contact:
                let email = state.contactEmail.text.isEmpty ? nil : state.contactEmail.text
                return .added(try await dependencies.friends.addContact(name: state.value.text, email: email, by: user.id))
            }
            switch addition {
            case .requested(let profile): return .requested(person: profile)
            case .friends(let friend): return .added(friend)
            }
        } catch {
            model.failed(error)
            return nil
        }
    }
}
