import FlowKit
import Friends
import Primitives

/// What the choice of people shows.
struct PickCounterpartyViewState: Equatable, Sendable {
    /// One friend or contact on offer.
    struct Person: Equatable, Sendable {
        var id: ElementID
        var friend: Friend
        /// Someone already in the expense being edited who is not among the user's friends and
        /// contacts (another person's contact, a friend since removed): listed so they are kept.
        var isOutsider = false

        /// Who they are besides their name: their email (typed whole, it picks them), that they
        /// are a contact without one, or that they are only in this expense.
        var detail: String {
            if isOutsider { return "in this expense" }
            return switch friend.kind {
            case .account(let email, _), .contact(let email?): email.value
            case .contact(nil): "a contact"
            }
        }
    }

    var people: [Person] = []
    var picked: [ElementID] = []
    var pickError: String?
    var notice: String?
    var phase = Phase.idle
}

/// Turns the user's friends, who they shared with lately, and what they pick into the screen's state.
struct PickCounterpartyViewModel: ViewModel {
    static var examples: [PickCounterpartyViewState] {
        guard let name = try? DisplayName("Someone") else { return [] }
        let bob = Friend(id: UserID(rawValue: "someone"), name: name, kind: .contact(email: nil))
        var picking = PickCounterpartyViewModel(friends: [bob], recent: [], picked: [bob])
        var states = [picking.state]
        picking.picked([picking.state.people[0].id, picking.state.people[0].id])
        states.append(picking.state)
        var unread = PickCounterpartyViewModel(friends: [], recent: [], picked: [])
        unread.failedToLoad(.storeUnavailable(FlowInventory.anyDetail))
        states.append(unread.state)
        var added = PickCounterpartyViewModel(friends: [], recent: [], picked: [])
        added.added(bob)
        states.append(added.state)
        return states
    }

    private(set) var state = PickCounterpartyViewState()

    /// People already picked who are not among `friends` first (they are in the expense being
    /// edited, so dropping them silently would lose their part); then friends that were in the
    /// user's latest expenses, most recent first; then the others by name.
    init(friends: [Friend], recent: [UserID], picked: [Friend]) {
        let byID = Dictionary(friends.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var outsiders: [Friend] = []
        for person in picked where byID[person.id] == nil && !outsiders.contains(where: { $0.id == person.id }) {
            outsiders.append(person)
        }
        let recentFriends = recent.compactMap { byID[$0] }
        let recentIDs = Set(recentFriends.map(\.id))
        let ordered = outsiders + recentFriends + friends.filter { !recentIDs.contains($0.id) }
        // "you" is the user's own identifier on the expense form, so no one else takes it.
        let ids = ElementID.readable(for: ["You"] + ordered.map(\.name.value)).dropFirst()
        state.people = zip(ids, ordered).enumerated().map { index, pair in
            PickCounterpartyViewState.Person(id: pair.0, friend: pair.1, isOutsider: index < outsiders.count)
        }
        let pickedIDs = Set(picked.map(\.id))
        state.picked = state.people.filter { pickedIDs.contains($0.friend.id) }.map(\.id)
    }

    /// The friends picked, in the order they are listed.
    var pickedFriends: [Friend] {
        state.people.filter { state.picked.contains($0.id) }.map(\.friend)
    }

    mutating func picked(_ ids: [ElementID]) {
        state.notice = nil
        state.phase = .idle
        var seen: Set<ElementID> = []
        for id in ids where !seen.insert(id).inserted {
            let name = state.people.first { $0.id == id }?.friend.name.value ?? id.rawValue
            state.pickError = "\(name) is picked twice: pick each person once."
            return
        }
        state.pickError = nil
        state.picked = state.people.map(\.id).filter(seen.contains)
    }

    /// Whether the choice can be handed back: nothing picked twice, and the friends were read
    /// (an empty choice from a list that failed to load would drop everyone picked before).
    var canFinish: Bool { state.pickError == nil && !loadFailed }
    private(set) var loadFailed = false

    mutating func failedToLoad(_ error: FriendsError) {
        loadFailed = true
        state.phase = .failed(error.message + " Cancel, and try again later.")
    }

    /// The contacts added here: they stay even if the user leaves.
    private(set) var addedContacts: [Friend] = []

    /// What leaving returns: cancelled, unless contacts were added (which stay).
    var leaving: PickCounterpartyFlow.FlowResult {
        addedContacts.isEmpty ? .cancelled : .left(added: addedContacts)
    }

    /// The new contact is listed first and picked.
    mutating func added(_ friend: Friend) {
        addedContacts.append(friend)
        let taken = ["You"] + state.people.map(\.friend.name.value)
        let id = ElementID.readable(for: taken + [friend.name.value]).last ?? "option"
        state.people.insert(PickCounterpartyViewState.Person(id: id, friend: friend), at: 0)
        state.picked.insert(id, at: 0)
        state.phase = .idle
        state.notice = "\(friend.name.value) is now one of your contacts, and picked."
    }
}
