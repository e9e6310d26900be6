import Expenses
import FlowKit
import Friends
import Primitives

/// What the Friends tab shows.
struct FriendsViewState: Equatable, Sendable {
    /// One friend, with their balances in words ("owes you 12.50 EUR, you owe 3.00 USD").
    struct Row: Equatable, Sendable {
        /// What a script chooses to open them: their name in lower case, words joined by dashes.
        var id: ElementID
        var name: String
        var isContact: Bool
        var balances: String
    }

    /// The user's totals per currency, one line each.
    var totals: [String] = []
    /// The totals and the friends' balances in words, each in its tone.
    var tones: [TonedPhrase] = []
    /// The friends shown: the first ``FriendsViewModel/shownAtFirst`` that match the filter,
    /// more on request.
    var rows: [Row] = []
    /// How many match the filter in all.
    var matching = 0
    var filter = ""
    /// Friend requests waiting for the user's answer.
    var requestsWaiting = 0
    var actions: [Action]
    var phase = Phase.idle
    var notice: String?
}

/// Turns the friends and the balances with them into the tab's state.
struct FriendsViewModel: ViewModel {
    static func examples(actions: [Action]) -> [FriendsViewState] {
        var empty = FriendsViewModel(actions: actions)
        empty.loaded([], balances: [], requestsWaiting: 0)
        var filtered = empty
        filtered.filterChanged(FlowInventory.anyDetail)
        var failed = FriendsViewModel(actions: actions)
        failed.failed(FlowInventory.anyDetail)
        var noticed = empty
        noticed.said(FlowInventory.anyDetail)
        var asked = FriendsViewModel(actions: actions)
        asked.loaded([], balances: [], requestsWaiting: 2)
        var states = [empty.state, filtered.state, failed.state, noticed.state, asked.state]
        // More friends than are shown at first: the list and the action that shows more.
        if let name = try? DisplayName("Someone") {
            var many = FriendsViewModel(actions: actions)
            many.loaded((0...shownAtFirst).map { Friend(id: UserID(rawValue: "\($0)"), name: name, kind: .contact(email: nil)) }, balances: [], requestsWaiting: 0)
            states.append(many.state)
        }
        return states
    }

    /// Friends shown before the user asks for more (or narrows the list by typing).
    static let shownAtFirst = 20

    /// A friend and their balances, kept to filter and sort without reading again.
    private struct Entry {
        var id: ElementID
        var friend: Friend
        var balances: [Money]
        /// The largest balance, as a magnitude in thousandths of a major unit: what sorts them.
        var size: Int128
    }

    private(set) var state: FriendsViewState
    private var entries: [Entry] = []
    /// How many matching friends are shown.
    private var limit = shownAtFirst

    init(actions: [Action]) {
        state = FriendsViewState(actions: actions)
    }

    mutating func loaded(_ friends: [Friend], balances: [Balance], requestsWaiting: Int) {
        state.requestsWaiting = requestsWaiting
        var byFriend: [UserID: [Money]] = [:]
        for balance in balances where balance.amount.minorUnits != 0 { byFriend[balance.other, default: []].append(balance.amount) }
        // Identifiers follow the friends' order by name, so a balance moving does not change them.
        let ids = ElementID.readable(for: friends.map(\.name.value))
        entries = zip(ids, friends).map { id, friend in
            let open = (byFriend[friend.id] ?? []).sorted { $0.currency.code < $1.currency.code }
            return Entry(id: id, friend: friend, balances: open, size: open.map(Self.size).max() ?? 0)
        }
        // Largest balance first; then by name.
        entries.sort { ($0.size, $1.friend.name.value.lowercased()) > ($1.size, $0.friend.name.value.lowercased()) }
        var totals: [Currency: Int128] = [:]
        for entry in entries { for money in entry.balances { totals[money.currency, default: 0] += Int128(money.minorUnits) } }
        let lines = totals.keys.sorted { $0.code < $1.code }.compactMap { currency in
            BalanceWords.total(totals[currency] ?? 0, in: currency).map { TonedPhrase($0, (totals[currency] ?? 0) > 0 ? .positive : .negative) }
        }
        state.totals = lines.map(\.phrase)
        // Every balance of a friend reads one of two ways: a phrase each, wherever it stands.
        var phrases: [TonedPhrase] = []
        for money in Set(entries.flatMap(\.balances)).sorted(by: { ($0.currency.code, $0.minorUnits) < ($1.currency.code, $1.minorUnits) }) {
            phrases.append(TonedPhrase(BalanceWords.phrase(money), money.isNegative ? .negative : .positive))
        }
        state.tones = lines + phrases
        state.phase = .idle
        show()
    }

    mutating func filterChanged(_ text: String) {
        state.filter = text
        limit = Self.shownAtFirst
        show()
    }

    /// Shows more of the matching friends.
    mutating func more() {
        limit += Self.shownAtFirst
        show()
    }

    /// The friend a row's identifier names.
    func friend(_ id: ElementID) -> Friend? {
        entries.first { $0.id == id }?.friend
    }

    mutating func said(_ notice: String?) {
        state.notice = notice
    }

    mutating func failed(_ message: String) {
        state.phase = .failed(message)
    }

    private mutating func show() {
        let needle = state.filter.trimmingCharacters(in: .whitespaces).lowercased()
        let matching = entries.filter { needle.isEmpty || $0.friend.name.value.lowercased().contains(needle) }
        state.matching = matching.count
        state.rows = matching.prefix(limit).map { entry in
            FriendsViewState.Row(
                id: entry.id, name: entry.friend.name.value, isContact: entry.friend.isContact,
                balances: entry.balances.isEmpty ? "settled up" : entry.balances.map(BalanceWords.phrase).joined(separator: ", ")
            )
        }
    }

    private static func size(_ money: Money) -> Int128 {
        let magnitude = Int128(money.minorUnits.magnitude)
        var scale: Int128 = 1
        for _ in 0..<max(0, 3 - money.currency.decimals) { scale *= 10 }
        return magnitude * scale
    }
}

