import Expenses
import FlowKit
import Friends
import Primitives

/// What the Friends tab shows.
struct FriendsViewState: Equatable, Sendable {
    /// One friend, with their balances in words ("owes you 12.50 EUR, you owe 3.00 USD").
    struct Row: Equatable, Sendable {
        var name: String
        var isContact: Bool
        var balances: String
    }

    /// The user's totals per currency, one line each.
    var totals: [String] = []
    var rows: [Row] = []
    var filter = ""
    var actions: [Action]
    var phase = Phase.idle
    var notice: String?
}

/// Turns the friends and the balances with them into the tab's state.
struct FriendsViewModel: ViewModel {
    static func examples(actions: [Action]) -> [FriendsViewState] {
        var empty = FriendsViewModel(actions: actions)
        empty.loaded([], balances: [])
        var filtered = empty
        filtered.filterChanged(FlowInventory.anyDetail)
        var failed = FriendsViewModel(actions: actions)
        failed.failed(FlowInventory.anyDetail)
        var noticed = empty
        noticed.said(FlowInventory.anyDetail)
        return [empty.state, filtered.state, failed.state, noticed.state]
    }

    /// A friend and their balances, kept to filter and sort without reading again.
    private struct Entry {
        var friend: Friend
        var balances: [Money]
        /// The largest balance, as a magnitude in thousandths of a major unit: what sorts them.
        var size: Int128
    }

    private(set) var state: FriendsViewState
    private var entries: [Entry] = []

    init(actions: [Action]) {
        state = FriendsViewState(actions: actions)
    }

    mutating func loaded(_ friends: [Friend], balances: [Balance]) {
        var byFriend: [UserID: [Money]] = [:]
        for balance in balances where balance.amount.minorUnits != 0 { byFriend[balance.other, default: []].append(balance.amount) }
        entries = friends.map { friend in
            let open = (byFriend[friend.id] ?? []).sorted { $0.currency.code < $1.currency.code }
            return Entry(friend: friend, balances: open, size: open.map(Self.size).max() ?? 0)
        }
        // Largest balance first; then by name.
        entries.sort { ($0.size, $1.friend.name.value.lowercased()) > ($1.size, $0.friend.name.value.lowercased()) }
        var totals: [Currency: Int128] = [:]
        for entry in entries { for money in entry.balances { totals[money.currency, default: 0] += Int128(money.minorUnits) } }
        state.totals = totals.keys.sorted { $0.code < $1.code }.compactMap { currency in
            guard let total = totals[currency], total != 0, let units = Int64(exactly: total) else { return nil }
            let money = Money(minorUnits: units, currency: currency)
            return total > 0 ? "In all, you are owed \(money)." : "In all, you owe \((try? money.negated()) ?? money)."
        }
        state.phase = .idle
        show()
    }

    mutating func filterChanged(_ text: String) {
        state.filter = text
        show()
    }

    mutating func said(_ notice: String?) {
        state.notice = notice
    }

    mutating func failed(_ message: String) {
        state.phase = .failed(message)
    }

    private mutating func show() {
        let needle = state.filter.trimmingCharacters(in: .whitespaces).lowercased()
        state.rows = entries.filter { needle.isEmpty || $0.friend.name.value.lowercased().contains(needle) }.map { entry in
            FriendsViewState.Row(
                name: entry.friend.name.value, isContact: entry.friend.isContact,
                balances: entry.balances.isEmpty ? "settled up" : entry.balances.map(Self.describe).joined(separator: ", ")
            )
        }
    }

    /// A balance from the user's side, after the friend's name: "owes you 12.50 EUR", "you owe 3.00 USD".
    private static func describe(_ balance: Money) -> String {
        balance.minorUnits > 0 ? "owes you \(balance)" : "you owe \((try? balance.negated()) ?? balance)"
    }

    private static func size(_ money: Money) -> Int128 {
        let magnitude = Int128(money.minorUnits.magnitude)
        var scale: Int128 = 1
        for _ in 0..<max(0, 3 - money.currency.decimals) { scale *= 10 }
        return magnitude * scale
    }
}

