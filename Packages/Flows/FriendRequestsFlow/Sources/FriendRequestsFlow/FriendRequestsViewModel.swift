import FlowKit
import Foundation
import Friends
import Primitives

/// What the friend requests screen shows.
struct FriendRequestsViewState: Equatable, Sendable {
    /// The screen's three lists.
    enum List: String, Sendable, CaseIterable {
        case incoming
        case outgoing
        case blocked
    }

    /// One person in a list, as the list names them.
    struct Entry: Equatable, Sendable {
        /// What a script chooses them by: their name in lower case, words joined by dashes.
        var id: ElementID
        var label: String
    }

    var incoming: [Entry] = []
    var outgoing: [Entry] = []
    var blocked: [Entry] = []
    /// The person chosen in each list, by the list's name.
    var selected: [String: ElementID] = [:]
    /// Whether the requests have been read.
    var loaded = false
    var phase = Phase.idle
    /// What the last answer did ("Declined Bob Stone's request.").
    var notice: String?
}

/// Turns the user's requests and what answering them said into the screen's state.
struct FriendRequestsViewModel: NoticingViewModel {
    /// A state for each thing the screen can show: the flow's coverage inventory is drawn from
    /// these.
    static var examples: [FriendRequestsViewState] {
        var empty = FriendRequestsViewModel(timeZone: .gmt)
        empty.loaded(FriendRequests())
        var states = [empty.state]
        if let name = try? DisplayName("Sam Park") {
            let people = (1...3).map { PublicProfile(id: UserID(rawValue: "\($0)"), name: name) }
            let time = Date(timeIntervalSince1970: 1_800_000_000)
            let links: [FriendRequest.Link?] = [nil, .sendersContact(name), .recipientsContact(name, email: FlowInventory.anyDetail)]
            let requests = zip(people, links).map { FriendRequest(person: $0, sentAt: time, link: $1) }
            var all = FriendRequestsViewModel(timeZone: .gmt)
            all.loaded(FriendRequests(incoming: requests, outgoing: requests, blocked: [people[0]]))
            states.append(all.state)
            var answered = all
            answered.noticed(FlowInventory.anyDetail)
            states.append(answered.state)
            var working = all
            working.busy()
            states.append(working.state)
        }
        var failed = FriendRequestsViewModel(timeZone: .gmt)
        failed.failed(.storeUnavailable(FlowInventory.anyDetail))
        states.append(failed.state)
        return states
    }

    private(set) var state = FriendRequestsViewState()
    /// Each list's people, by their entries' identifiers.
    private var people: [FriendRequestsViewState.List: [(id: ElementID, person: PublicProfile)]] = [:]
    private let timeZone: TimeZone

    init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// The person chosen in `list`, if any.
    func selected(_ list: FriendRequestsViewState.List) -> PublicProfile? {
        people[list]?.first { $0.id == state.selected[list.rawValue] }?.person
    }

    mutating func loaded(_ requests: FriendRequests) {
        state.loaded = true
        func entries(_ people: [PublicProfile]) -> [(id: ElementID, person: PublicProfile)] {
            Array(zip(ElementID.readable(for: people.map(\.name.value)), people))
        }
        people = [
            .incoming: entries(requests.incoming.map(\.person)),
            .outgoing: entries(requests.outgoing.map(\.person)),
            .blocked: entries(requests.blocked),
        ]
        state.incoming = zip(people[.incoming] ?? [], requests.incoming).map { entry, request in
            let asked = "\(request.person.name.value), asked \(day(request.sentAt))"
            let label = switch request.link {
            case .sendersContact(let contact)?: "\(asked): you would take over what they shared with their contact \(contact.value)"
            case .recipientsContact(let contact, let email)?:
                "\(asked): signed up with \(email), your contact \(contact.value)'s email. Accept only if they are \(contact.value): what you shared with \(contact.value) becomes theirs"
            case nil: asked
            }
            return FriendRequestsViewState.Entry(id: entry.id, label: label)
        }
        state.outgoing = zip(people[.outgoing] ?? [], requests.outgoing).map { entry, request in
            let asked = "\(request.person.name.value), asked \(day(request.sentAt))"
            let label = switch request.link {
            case .sendersContact(let contact)?: "\(asked): links your contact \(contact.value) once they accept"
            case .recipientsContact(let contact, _)?: "\(asked): to confirm you are their contact \(contact.value)"
            case nil: asked
            }
            return FriendRequestsViewState.Entry(id: entry.id, label: label)
        }
        state.blocked = (people[.blocked] ?? []).map { FriendRequestsViewState.Entry(id: $0.id, label: $0.person.name.value) }
        // A choice that is gone (answered) moves to the first one left.
        for list in FriendRequestsViewState.List.allCases {
            let ids = (people[list] ?? []).map(\.id)
            if !ids.contains(where: { $0 == state.selected[list.rawValue] }) { state.selected[list.rawValue] = ids.first }
        }
        state.phase = .idle
    }

    mutating func chosen(_ id: ElementID, in list: FriendRequestsViewState.List) {
        state.selected[list.rawValue] = id
        state.notice = nil
        state.phase = .idle
    }

    static var phase: WritableKeyPath<Self, Phase> { \.state.phase }
    static var notice: WritableKeyPath<Self, String?> { \.state.notice }

    mutating func failed(_ error: FriendsError) {
        state.phase = .failed(error.message)
    }

    private func day(_ date: Date) -> String {
        Day.today(at: date, in: timeZone).description
    }
}
