import Expenses
import FlowKit
import Groups
import Primitives

/// What the Groups tab shows.
struct GroupsViewState: Equatable, Sendable {
    /// One group, with where the user stands in it ("you are owed 20.00 EUR, you owe 3.00 USD").
    struct Row: Equatable, Sendable {
        var id: ElementID
        var name: String
        var kind: String
        var standing: String
    }

    /// The user's totals over all groups shown, per currency, one line each.
    var totals: [String] = []
    var tones: [TonedPhrase] = []
    var rows: [Row] = []
    /// Whether the archived groups are shown, rather than the open ones.
    var archived = false
    var actions: [Action]
    var phase = Phase.idle
    var notice: String?
}

/// Turns the groups and the user's balances in them into the tab's state.
struct GroupsViewModel: ViewModel {
    static func examples(actions: [Action]) -> [GroupsViewState] {
        var empty = GroupsViewModel(actions: actions)
        empty.loaded([], balances: [])
        var archived = empty
        archived.switchList()
        archived.loaded([], balances: [])
        var failed = GroupsViewModel(actions: actions)
        failed.failed(FlowInventory.anyDetail)
        var noticed = empty
        noticed.said(FlowInventory.anyDetail)
        var listed = GroupsViewModel(actions: actions)
        let one = Group(
            id: GroupID(rawValue: "g"), name: "Some group", kind: .trip, currency: .eur, simplifyDebts: true, members: [], archived: false,
            createdBy: UserID(rawValue: "u")
        )
        listed.loaded([one], balances: [])
        return [empty.state, archived.state, failed.state, noticed.state, listed.state]
    }

    private(set) var state: GroupsViewState
    private var groups: [ElementID: Group] = [:]

    init(actions: [Action]) {
        state = GroupsViewState(actions: actions)
    }

    /// The groups, by name as the service gives them, and the user's balances within groups.
    mutating func loaded(_ groups: [Group], balances: [GroupBalance]) {
        var net: [GroupID: [Currency: Int128]] = [:]
        for balance in balances { net[balance.group, default: [:]][balance.amount.currency, default: 0] += Int128(balance.amount.minorUnits) }
        let ids = ElementID.readable(for: groups.map(\.name))
        self.groups = Dictionary(uniqueKeysWithValues: zip(ids, groups))
        var totals: [Currency: Int128] = [:]
        var phrases: [TonedPhrase] = []
        state.rows = zip(ids, groups).map { id, group in
            let sums = (net[group.id] ?? [:]).filter { $0.value != 0 }.sorted { $0.key.code < $1.key.code }
            let standing = sums.map { currency, units in
                totals[currency, default: 0] += units
                let money = Money(minorUnits: Int64(clamping: units), currency: currency)
                let phrase = BalanceWords.standing(money, you: true)
                let toned = TonedPhrase(phrase, units > 0 ? .positive : .negative)
                if !phrases.contains(toned) { phrases.append(toned) }
                return phrase
            }
            return GroupsViewState.Row(id: id, name: group.name, kind: group.kind.rawValue, standing: standing.isEmpty ? "settled up" : standing.joined(separator: ", "))
        }
        let lines = totals.keys.sorted { $0.code < $1.code }.compactMap { currency in
            BalanceWords.total(totals[currency] ?? 0, in: currency).map { TonedPhrase($0, (totals[currency] ?? 0) > 0 ? .positive : .negative) }
        }
        state.totals = lines.map(\.phrase)
        state.tones = lines + phrases.sorted { $0.phrase < $1.phrase }
        state.phase = .idle
    }

    /// The group a row's identifier names.
    func group(_ id: ElementID) -> Group? {
        groups[id]
    }

    mutating func switchList() {
        state.archived.toggle()
        state.notice = nil
    }

    mutating func said(_ notice: String?) {
        state.notice = notice
    }

    mutating func failed(_ message: String) {
        state.phase = .failed(message)
    }
}
