import FlowKit
import FormFields
import Friends
import Groups
import Primitives

/// What editing a group shows.
struct EditGroupViewState: Equatable, Sendable {
    /// The groups to choose from, when launched without one (then nothing else is shown).
    var pickable: [Choice]?
    var title: String
    var name: TextEntry
    var kinds = GroupKind.allCases.map { Choice(id: ElementID($0.rawValue), label: $0.rawValue) }
    var kind: ElementID
    var currencies = Currency.all.map { Choice(id: ElementID($0.code), label: $0.code) }
    var currency: ElementID
    var simplify: Bool?
    /// The members, in words: `you, Bob Stone and Cy Young`.
    var members = ""
    /// The user's friends and contacts not in the group, and those picked to add.
    var addable: [Choice] = []
    var adding: [ElementID] = []
    /// The other members, to take one out.
    var others: [Choice] = []
    var removing: ElementID?
    var memberError: String?
    var archived: Bool
    var phase = Phase.idle
    var notice: String?
}

/// Turns a group, and what the user changes of it, into the screen's state.
struct EditGroupViewModel: SubmittingViewModel {
    static var examples: [EditGroupViewState] {
        let me = UserID(rawValue: "me"), other = UserID(rawValue: "other")
        let group = Group(
            id: GroupID(rawValue: "g"), name: "Some group", kind: .trip, currency: .eur, simplifyDebts: true, members: [me, other],
            archived: false, createdBy: me
        )
        var open = EditGroupViewModel(user: me, group: group)
        if let name = try? DisplayName("Someone") {
            open.people(names: [other: "Other"], friends: [Friend(id: UserID(rawValue: "f"), name: name, kind: .contact(email: nil))])
        }
        var archived = EditGroupViewModel(user: me, group: Group(
            id: group.id, name: group.name, kind: group.kind, currency: group.currency, simplifyDebts: true, members: [me], archived: true, createdBy: me
        ))
        archived.people(names: [:], friends: [])
        var saving = open
        saving.busy()
        var needing = open
        needing.needsMember()
        var noticed = open
        noticed.reloaded(group, said: FlowInventory.anyDetail)
        let refusals = DisplayName.Problem.allCases.map { GroupsError.invalid(.name($0)) } + [
            .invalid(.tooManyMembers), .unknownPeople([other]), .notMember(other),
            .memberNotSettled(other, balances: [Money(minorUnits: 100, currency: .eur)]), .groupNotSettled, .lastMember, .archived,
            .notFound(group.id), .refused(FlowInventory.anyDetail), .storeUnavailable(FlowInventory.anyDetail),
        ]
        let choosing = EditGroupViewModel(user: me, choosing: [group])
        var none = EditGroupViewModel(user: me, choosing: [])
        none.failedToLoad(FlowInventory.anyDetail)
        return [choosing.state, none.state, open.state, archived.state, saving.state, needing.state, noticed.state] + open.refusing(refusals)
    }

    private let user: UserID
    private(set) var group: Group
    private(set) var state: EditGroupViewState
    private var names: [UserID: String] = [:]
    /// The people the choices stand for, by their identifiers.
    private var people: [ElementID: UserID] = [:]
    private var choices: [ElementID: Group] = [:]

    init(user: UserID, group: Group) {
        self.user = user
        self.group = group
        state = EditGroupViewState(
            title: group.name, name: TextEntry(group.name), kind: ElementID(group.kind.rawValue), currency: ElementID(group.currency.code),
            simplify: group.simplifyDebts, archived: group.archived
        )
    }

    /// Choosing the group to edit among `groups`.
    init(user: UserID, choosing groups: [Group]) {
        self.init(user: user, group: groups.first ?? Group(
            id: GroupID(rawValue: ""), name: "", kind: .other, currency: .eur, simplifyDebts: true, members: [], archived: false, createdBy: user
        ))
        let ids = ElementID.readable(for: groups.map(\.name))
        choices = Dictionary(zip(ids, groups), uniquingKeysWith: { first, _ in first })
        state.pickable = zip(ids, groups).map { Choice(id: $0, label: $1.archived ? "\($1.name) (archived)" : $1.name) }
    }

    /// The group a choice names.
    func pickable(_ id: ElementID) -> Group? {
        choices[id]
    }

    mutating func failedToLoad(_ message: String) {
        state.phase = .failed(message)
    }

    /// The members' names as the user knows them, and the user's friends and contacts.
    mutating func people(names: [UserID: String], friends: [Friend]) {
        self.names = names
        let others = group.members.filter { $0 != user }
        let addable = friends.filter { !group.members.contains($0.id) }
        let otherIDs = ElementID.readable(for: others.map(name))
        let addableIDs = ElementID.readable(for: addable.map(\.name.value))
        people = Dictionary(Array(zip(otherIDs, others)) + Array(zip(addableIDs, addable.map(\.id))), uniquingKeysWith: { first, _ in first })
        state.others = zip(otherIDs, others).map { Choice(id: $0, label: name($1)) }
        state.addable = zip(addableIDs, addable).map { Choice(id: $0, label: $1.name.value) }
        state.adding = state.adding.filter { id in state.addable.contains { $0.id == id } }
        state.members = (["you"] + others.map(name)).listedInWords
    }

    /// The name the user knows `person` by.
    func name(_ person: UserID) -> String {
        person == user ? "you" : names[person] ?? "someone's contact"
    }

    /// The people picked to add.
    var adding: [UserID] { state.adding.compactMap { people[$0] } }

    /// The member chosen to take out.
    var removing: UserID? { state.removing.flatMap { people[$0] } }

    mutating func typed(_ text: String) {
        state.name = TextEntry(text, as: DisplayName.self)
        state.phase = .idle
    }

    mutating func chose(_ field: ElementID, _ options: [ElementID]) {
        switch field {
        case EditGroupView.kind: if let kind = options.first { state.kind = kind }
        case EditGroupView.currency: if let currency = options.first { state.currency = currency }
        case EditGroupView.simplify: state.simplify = options.first.map { $0 == .yes }
        case EditGroupView.add: state.adding = options
        case EditGroupView.member:
            state.removing = options.first
            state.memberError = nil
        default: return
        }
        state.phase = .idle
    }

    /// The settings as filled in, or nil with the name's message shown.
    mutating func checkedSettings() -> GroupSettings? {
        typed(state.name.text)
        guard state.name.error == nil else { return nil }
        return GroupSettings(
            name: state.name.text, kind: GroupKind(rawValue: state.kind.rawValue) ?? group.kind,
            currency: Currency(code: state.currency.rawValue) ?? group.currency, simplifyDebts: state.simplify ?? group.simplifyDebts
        )
    }

    mutating func needsMember() {
        state.memberError = "Choose whom to take out first."
    }

    /// The group as it is after a change, and what to say of it.
    mutating func reloaded(_ group: Group, said notice: String) {
        self.group = group
        state.removing = nil
        state.phase = .idle
        state.notice = notice
    }

    mutating func busy() {
        state.phase = .loading
        state.notice = nil
    }

    mutating func failed(_ error: GroupsError) {
        state.phase = .idle
        switch error {
        case .invalid(.name): state.name.error = error.message
        // The user's own balance stops them leaving: the screen's error, not the member field's.
        case .memberNotSettled(let member, _) where member == user: state.phase = .failed(error.message)
        case .notMember, .memberNotSettled: state.memberError = error.message
        default: state.phase = .failed(error.message)
        }
    }
}
