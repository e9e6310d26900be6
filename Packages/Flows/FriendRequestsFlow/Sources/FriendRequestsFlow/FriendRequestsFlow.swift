import Accounts
import FlowKit
import Foundation
import Friends
import Primitives

/// The user's friend requests: those asking them, to accept, decline or block; those they sent,
/// to take back; and the people they blocked, to unblock.
public actor FriendRequestsFlow: InventoriedFlow {
    /// How the screen was left.
    public enum FlowResult: FlowOutcome {
        /// Back, after answering: the friends accepted (none when only declined, blocked, taken
        /// back or unblocked).
        case answered(accepted: [Friend])
        /// Back, with nothing changed.
        case cancelled
    }

    /// What the flow needs from the app.
    public protocol Dependencies: Sendable {
        var friends: any FriendsService { get }
        /// Where the user is: the days are shown in it.
        var timeZone: TimeZone { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory { FlowInventory(drawing: FriendRequestsView(), for: FriendRequestsViewModel.examples) }

    private let user: User
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<FriendRequestsAction>

    public init(user: User, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var model = FriendRequestsViewModel(timeZone: dependencies.timeZone)
        var accepted: [Friend] = []
        var changed = false
        await load(into: &model)
        return await presenter.run(model.state) { action, view in
            let friends = dependencies.friends
            let me = user.id
            switch action {
            case .chosen(let list, let id):
                model.chosen(id, in: list)
            case .tapped(.accept):
                guard let person = model.selected(.incoming) else { break }
                changed = await answer(&model, on: view) { () throws(FriendsError) in
                    let friend = try await friends.accept(person.id, by: me)
                    accepted.append(friend)
                    return "You and \(friend.name.value) are friends now."
                } || changed
            case .tapped(.decline):
                guard let person = model.selected(.incoming) else { break }
                changed = await answer(&model, on: view) { () throws(FriendsError) in
                    try await friends.dropRequest(with: person.id, by: me)
                    return "Declined \(person.name.value)'s request."
                } || changed
            case .tapped(.block):
                guard let person = model.selected(.incoming) else { break }
                changed = await answer(&model, on: view) { () throws(FriendsError) in
                    try await friends.block(person.id, by: me)
                    return "Blocked \(person.name.value): their requests no longer reach you."
                } || changed
            case .tapped(.takeBack):
                guard let person = model.selected(.outgoing) else { break }
                changed = await answer(&model, on: view) { () throws(FriendsError) in
                    try await friends.dropRequest(with: person.id, by: me)
                    return "Took back your request to \(person.name.value)."
                } || changed
            case .tapped(.unblock):
                guard let person = model.selected(.blocked) else { break }
                changed = await answer(&model, on: view) { () throws(FriendsError) in
                    try await friends.unblock(person.id, by: me)
                    return "Unblocked \(person.name.value): you may send each other requests again."
                } || changed
            case .refresh:
                // A request sent or taken back meanwhile; the one chosen stays chosen.
                await load(into: &model)
            case .back:
                return changed ? .answered(accepted: accepted) : .cancelled
            }
            return nil
        }
    }

    /// Makes one answer by `work`, which says what it did, and reads the requests again (also
    /// when refused: answered or taken back elsewhere meanwhile); whether it was made.
    private func answer(
        _ model: inout FriendRequestsViewModel, on view: ViewActions<FriendRequestsAction>, _ work: () async throws(FriendsError) -> String
    ) async -> Bool {
        await view.act(&model, reloading: { await load(into: &$0) }) { () throws(FriendsError) in (true, try await work()) } ?? false
    }

    private func load(into model: inout FriendRequestsViewModel) async {
        do throws(FriendsError) {
            model.loaded(try await dependencies.friends.requests(of: user.id))
        } catch {
            model.failed(error)
        }
    }
}
