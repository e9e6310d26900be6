import FlowKit
import Friends
import Groups
import Primitives

/// Changes a group: its name, kind, currency and debt simplifying; adds members (the user's
/// friends and contacts); takes a member out, leaves it, or archives it (each refused, with
/// the balances, while someone concerned is not settled there), or brings an archived one back.
/// Launched without a group, the user first chooses one.
public actor EditGroupFlow: InventoriedFlow {
    /// How the editing ended.
    public enum FlowResult: FlowOutcome {
        /// The group as it is now, after the changes made (saved, a member out, archived).
        case changed(Group)
        /// The user left the group.
        case left(Group)
        /// The user went back without changing anything.
        case cancelled
    }

    /// What the flow needs from the app.
    public protocol Dependencies: Sendable {
        var friends: any FriendsService { get }
        var groups: any GroupsService { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: EditGroupView(), for: EditGroupViewModel.examples)
    }

    private let user: UserID
    private let group: Group?
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<EditGroupAction>

    /// Edits `group`; without one, the user first chooses among their groups.
    public init(user: UserID, group: Group?, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.group = group
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var picked = group
        if picked == nil { picked = await chosen() }
        guard let group = picked else { return .cancelled }
        var model = EditGroupViewModel(user: user, group: group)
        await names(into: &model)
        // A change made stays made: leaving after one says so.
        var changed: Group?
        return await presenter.run(model.state) { action, view in
            switch action {
            case .typed(let text):
                model.typed(text)
            case .chose(let field, let options):
                model.chose(field, options)
            case .tapped(.save):
                guard let settings = model.checkedSettings() else { break }
                let adding = model.adding
                let saved = await view.submit(&model) { model throws(GroupsError) in
                    var group = try await dependencies.groups.update(model.group.id, to: settings, by: user)
                    if !adding.isEmpty { group = try await dependencies.groups.addMembers(adding, to: group.id, by: user) }
                    return group
                }
                if let saved { return .changed(saved) }
            case .tapped(.removeMember):
                guard let member = model.removing else {
                    model.needsMember()
                    break
                }
                let after = await view.submit(&model) { model throws(GroupsError) in
                    try await dependencies.groups.removeMember(member, from: model.group.id, by: user)
                }
                if let after {
                    changed = after
                    model.reloaded(after, said: "\(model.name(member)) is no longer in the group.")
                    await names(into: &model)
                }
            case .tapped(.leave):
                let left = await view.submit(&model) { model throws(GroupsError) in
                    try await dependencies.groups.leave(model.group.id, by: user)
                    return true
                }
                if left != nil { return .left(model.group) }
            case .archive(let archived):
                let after = await view.submit(&model) { model throws(GroupsError) in
                    try await dependencies.groups.setArchived(archived, model.group.id, by: user)
                }
                if let after { return .changed(after) }
            case .cancel:
                return changed.map(FlowResult.changed) ?? .cancelled
            }
            return nil
        }
    }

    /// The group the user chooses among theirs, open or archived; nil when they go back.
    private func chosen() async -> Group? {
        var groups: [Group] = []
        var failure: String?
        do throws(GroupsError) {
            groups = try await dependencies.groups.everyGroup(of: user)
        } catch {
            failure = error.message
        }
        var model = EditGroupViewModel(user: user, choosing: groups)
        if let failure { model.failedToLoad(failure) }
        return await presenter.run(model.state) { action, _ in
            switch action {
            case .chose(EditGroupView.group, let options):
                if let picked = options.first.flatMap(model.pickable) { return .some(picked) }
            case .cancel: return .some(nil)
            default: break
            }
            return nil
        }
    }

    /// The members' names, and the user's friends and contacts who are not members yet.
    private func names(into model: inout EditGroupViewModel) async {
        let names = (try? await dependencies.friends.names(of: Set(model.group.members), for: user)) ?? [:]
        let friends = (try? await dependencies.friends.friends(of: user)) ?? []
        model.people(names: names.mapValues(\.value), friends: friends)
    }
}
