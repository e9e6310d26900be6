import FlowKit
import FormFields
import Friends
import Groups
import Primitives

/// What the new group's form shows.
struct CreateGroupViewState: Equatable, Sendable {
    var name = TextEntry()
    var kinds = GroupKind.allCases.map { Choice(id: ElementID($0.rawValue), label: $0.rawValue) }
    var kind = ElementID(GroupKind.other.rawValue)
    /// The user's friends and contacts, by name.
    var friends: [Choice] = []
    var picked: [ElementID] = []
    var membersError: String?
    var currencies = Currency.all.map { Choice(id: ElementID($0.code), label: $0.code) }
    var currency: ElementID
    var simplify: Bool? = true
    var phase = Phase.idle
    var notice: String?
}

/// Turns what the user fills in and what the service answers into the form's state.
struct CreateGroupViewModel: FormViewModel {
    static var examples: [CreateGroupViewState] {
        let refusals = DisplayName.Problem.allCases.map { GroupsError.invalid(.name($0)) } + [
            .invalid(.tooManyMembers), .unknownPeople([UserID(rawValue: FlowInventory.anyDetail)]), .refused(FlowInventory.anyDetail),
            .storeUnavailable(FlowInventory.anyDetail),
        ]
        var saving = CreateGroupViewModel(currency: .eur)
        saving.busy()
        var unloaded = CreateGroupViewModel(currency: .eur)
        unloaded.loadFailed(FlowInventory.anyDetail)
        var withFriends = CreateGroupViewModel(currency: .eur)
        var added = withFriends
        if let name = try? DisplayName("Someone") {
            let someone = Friend(id: UserID(rawValue: "someone"), name: name, kind: .contact(email: nil))
            withFriends.loaded([someone])
            added.added(someone)
        }
        return [CreateGroupViewModel(currency: .eur).state, saving.state, unloaded.state, withFriends.state, added.state] + withFriends.refusing(refusals)
    }

    private(set) var state: CreateGroupViewState
    /// The friends the choices stand for, by their identifiers.
    private var people: [ElementID: UserID] = [:]

    init(currency: Currency) {
        state = CreateGroupViewState(currency: ElementID(currency.code))
    }

    mutating func loaded(_ friends: [Friend]) {
        let ids = ElementID.readable(for: friends.map(\.name.value))
        // A contact says so beside the name, so that the name alone picks them (`--set members=Sam Park`).
        state.friends = zip(ids, friends).map { Choice(id: $0, label: $1.name.value, detail: $1.isContact ? "contact" : nil) }
        people = Dictionary(uniqueKeysWithValues: zip(ids, friends.map(\.id)))
    }

    /// A contact just added is listed first and picked.
    mutating func added(_ contact: Friend) {
        let id = ElementID.readable(for: state.friends.map(\.label) + [contact.name.value]).last ?? "option"
        state.friends.insert(Choice(id: id, label: contact.name.value, detail: "contact"), at: 0)
        people[id] = contact.id
        chose(CreateGroupView.members, [id] + state.picked)
        state.notice = "\(contact.name.value) is now one of your contacts, and a member."
    }

    mutating func loadFailed(_ message: String) {
        state.notice = "Your friends could not be read (\(message)): the group starts with you, and you can add members later."
    }

    /// The group as filled in.
    var draft: GroupDraft {
        GroupDraft(
            name: state.name.text, kind: GroupKind(rawValue: state.kind.rawValue) ?? .other,
            currency: Currency(code: state.currency.rawValue) ?? .eur, simplifyDebts: state.simplify ?? true,
            members: state.picked.compactMap { people[$0] }
        )
    }

    mutating func typed(_ field: ElementID, _ text: String) {
        guard field == CreateGroupView.name else { return }
        state.name = TextEntry(text, as: DisplayName.self)
        state.phase = .idle
    }

    mutating func chose(_ field: ElementID, _ options: [ElementID]) {
        switch field {
        case CreateGroupView.kind: if let kind = options.first { state.kind = kind }
        case CreateGroupView.currency: if let currency = options.first { state.currency = currency }
        case CreateGroupView.members:
            state.picked = options
            state.membersError = options.count < Group.memberLimit ? nil : GroupProblem.tooManyMembers.message
        case CreateGroupView.simplify: state.simplify = options.first.map { $0 == .yes }
        default: break
        }
        state.phase = .idle
    }

    mutating func checkAll() -> Bool {
        typed(CreateGroupView.name, state.name.text)
        return state.name.error == nil && state.membersError == nil
    }

    mutating func busy() {
        state.phase = .loading
    }

    mutating func failed(_ error: GroupsError) {
        state.phase = .idle
        switch error {
        case .invalid(.name): state.name.error = error.message
        case .invalid(.tooManyMembers), .unknownPeople: state.membersError = error.message
        default: state.phase = .failed(error.message)
        }
    }
}
