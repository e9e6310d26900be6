import Accounts
import Expenses
import FlowsServices
import Foundation
import Friends
import Primitives
import Testing

/// Random walks over the whole ledger, links of contacts to accounts among them: adds, edits,
/// deletes and restores of expenses of every rule and currency, payments and their undoing, new
/// contacts. After every step, every kept balance must equal the test's own recount (worked out
/// here from what each write returned, not by the store), `verify` must find the ledger sound, and
/// every expense must read back with the very parts and payments it was written with, the linked
/// contact's in the account's name.
@Suite("The ledger after any sequence of writes and links, on SQLite")
struct LedgerWalkSQLiteTests {
    @Test("the kept balances equal a recount and every part stays where it was, whatever the order of writes and links")
    func walks() async throws {
        for seed in 1...24 {
            let failure = try await LedgerWalk.run(seed: UInt64(seed), steps: 45, on: LocalServices.inMemory())
            #expect(failure == nil, "\(failure ?? "")")
            if failure != nil { break }
        }
    }
}

@Suite("The ledger after any sequence of writes and links, on PostgreSQL", TestDatabase.required)
struct LedgerWalkPostgresTests {
    @Test("the kept balances equal a recount and every part stays where it was, whatever the order of writes and links")
    func walks() async throws {
        // The first walks of the SQLite suite, step for step: the world's ids come from the same
        // seed as `LocalServices.inMemory()`'s.
        for seed in 1...8 {
            let failure = try await PostgresWorld.run(seed: 1) { world in
                try await LedgerWalk.run(seed: UInt64(seed), steps: 45, on: world.services)
            }
            #expect(failure == nil, "\(failure ?? "")")
            if failure != nil { break }
        }
    }
}

/// One walk: a world of four accounts, all friends, and the first one's contacts.
private struct LedgerWalk {
    var random: Steps
    let services: LocalServices
    var model = LedgerModel()
    var accounts: [UserID] = []
    /// The first account's contacts not yet linked.
    var contacts: [UserID] = []
    /// Everyone who ever was: contacts linked away must have nothing left.
    var everyone: [UserID] = []
    var names: [UserID: String] = [:]
    var history: [String] = []
    var contactsMade = 0

    var ann: UserID { accounts[0] }

    /// Runs `steps` random steps; nil when every check held, else what failed, with the steps
    /// that led there.
    static func run(seed: UInt64, steps: Int, on services: LocalServices) async throws -> String? {
        var walk = LedgerWalk(random: Steps(state: seed), services: services)
        try await walk.setUp()
        for step in 1...steps {
            let problem: String?
            do {
                try await walk.step()
                problem = try await walk.check()
            } catch {
                problem = "\(error)"
            }
            if let problem { return "seed \(seed), step \(step): \(problem)\n" + walk.history.joined(separator: "\n") }
        }
        return nil
    }

    mutating func setUp() async throws {
        var codes: [String] = []
        for name in ["Ann", "Ben", "Dee", "Eve"] {
            let user = try await services.accounts.signUp(email: "\(name.lowercased())@example.com", displayName: name, password: "correct horse")
            try await services.accounts.signOut()
            accounts.append(user.id)
            codes.append(user.friendCode.description)
            names[user.id] = name
        }
        for (index, a) in accounts.enumerated() {
            for code in codes[(index + 1)...] { _ = try await services.friends.befriend(.friendCode(code), by: a) }
        }
        everyone = accounts
        for _ in 0..<4 { try await addContact() }
    }

    mutating func addContact() async throws {
        contactsMade += 1
        let name = "Contact \(contactsMade)"
        let contact = try await services.friends.addContact(name: name, email: nil, by: ann)
        contacts.append(contact.id)
        everyone.append(contact.id)
        names[contact.id] = name
        history.append("Ann adds the contact \(name)")
    }

    func name(_ id: UserID) -> String { names[id] ?? id.rawValue }

    /// Whom `writer` may name in a new expense: every account, and the first one's own contacts.
    func nameable(by writer: UserID) -> [UserID] {
        writer == ann ? accounts + contacts : accounts
    }

    mutating func step() async throws {
        switch random.next(100) {
        case 0..<28: try await add()
        case 28..<42: try await edit()
        case 42..<54: try await delete()
        case 54..<62: try await restore()
        case 62..<76: try await settle()
        case 76..<84: try await undo()
        case 84..<94: try await link()
        default: try await addContact()
        }
    }

    // MARK: - Steps

    mutating func add() async throws {
        guard let writer = random.pick(accounts) else { return }
        let draft = makeDraft(pool: nameable(by: writer), including: writer)
        do {
            let expense = try await services.expenses.add(draft, by: writer)
            model.live[expense.id] = LedgerModel.Entry(expense)
            history.append("\(name(writer)) adds \(describe(expense))")
        } catch {
            history.append("\(name(writer)) adds \(describe(draft)): refused, \(error)")
        }
    }

    mutating func edit() async throws {
        guard let (id, entry) = random.pick(model.live.sorted { $0.key.rawValue < $1.key.rawValue }).map({ ($0.key, $0.value) }) else { return }
        let editors = entry.people.filter(accounts.contains)
        guard let editor = random.pick(editors) else { return }
        let pool = Array(Set(entry.people + nameable(by: editor))).sorted { $0.rawValue < $1.rawValue }
        let draft = makeDraft(pool: pool, including: editor)
        do {
            let expense = try await services.expenses.edit(id, to: draft, from: entry.version, by: editor)
            model.live[id] = LedgerModel.Entry(expense)
            history.append("\(name(editor)) edits \(id) to \(describe(expense))")
        } catch {
            history.append("\(name(editor)) edits \(id) to \(describe(draft)): refused, \(error)")
        }
    }

    mutating func delete() async throws {
        guard let (id, entry) = random.pick(model.live.sorted { $0.key.rawValue < $1.key.rawValue }).map({ ($0.key, $0.value) }),
              let user = random.pick(entry.people.filter(accounts.contains)) else { return }
        try await services.expenses.delete(id, from: entry.version, by: user)
        model.live[id] = nil
        model.deleted[id] = entry
        history.append("\(name(user)) deletes \(id)")
    }

    mutating func restore() async throws {
        guard let (id, entry) = random.pick(model.deleted.sorted { $0.key.rawValue < $1.key.rawValue }).map({ ($0.key, $0.value) }),
              // Restoring writes it again: only one who may name everyone in it (the accounts are
              // all friends; the contacts are Ann's).
              let user = random.pick(entry.people.filter { accounts.contains($0) && ($0 == ann || entry.people.allSatisfy(accounts.contains)) })
        else { return }
        _ = try await services.expenses.restore(id, by: user)
        model.deleted[id] = nil
        model.live[id] = entry
        history.append("\(name(user)) restores \(id)")
    }

    mutating func settle() async throws {
        let people = accounts + contacts
        guard let from = random.pick(people) else { return }
        guard let to = random.pick(people.filter { $0 != from }) else { return }
        guard let user = [from, to].first(where: accounts.contains) else { return }
        let currency = random.next(2) == 0 ? Currency.eur : .jpy
        let amount = Money(minorUnits: Int64(1 + random.next(4_000)), currency: currency)
        do {
            let settlement = try await services.expenses.settle(from: from, to: to, amount: amount, day: try Day("2026-11-22"), by: user)
            model.settlements[settlement.id] = LedgerModel.Payment(settlement)
            history.append("\(name(user)) records \(name(from)) paying \(name(to)) \(amount): \(settlement.id)")
        } catch {
            history.append("\(name(user)) records \(name(from)) paying \(name(to)) \(amount): refused, \(error)")
        }
    }

    mutating func undo() async throws {
        guard let (id, payment) = random.pick(model.settlements.sorted { $0.key.rawValue < $1.key.rawValue }).map({ ($0.key, $0.value) }),
              let user = [payment.from, payment.to].first(where: accounts.contains) else { return }
        try await services.expenses.undoSettlement(id, by: user)
        model.settlements[id] = nil
        history.append("\(name(user)) takes back \(id)")
    }

    mutating func link() async throws {
        // Mostly a pair that may be linked; now and then any pair, to see the refusal.
        let pairs = contacts.flatMap { contact in accounts.dropFirst().map { (contact, $0) } }
        let linkable = pairs.filter { !model.share($0.0, $0.1) }
        guard let (contact, account) = random.pick(random.next(4) == 0 || linkable.isEmpty ? pairs : linkable) else { return }
        let shared = model.share(contact, account)
        // (A Result, not a catch of the typed error: Swift 6.3.1's SIL verifier crashes on that here.)
        let email = "\(name(account).lowercased())@example.com"
        let friends = services.friends
        let outcome = await result { () async throws(FriendsError) -> FriendAddition in
            try await friends.link(contact, to: .email(email), by: ann)
        }
        switch outcome {
        case .success:
            history.append("Ann links \(name(contact)) to \(name(account))")
            if shared { history.append("  (they share an expense or a payment: the link should have been refused)") }
            model.rename(contact, to: account)
            contacts.removeAll { $0 == contact }
        case .failure(let error):
            history.append("Ann links \(name(contact)) to \(name(account)): refused, \(error)")
            guard case .cannotLink = error, shared else {
                throw WalkError.unexpected("the link of \(name(contact)) to \(name(account)) was refused: \(error)")
            }
        }
    }

    // MARK: - Checks

    /// What differs between the store and the model, if anything.
    func check() async throws -> String? {
        var kept: [LedgerModel.PairKey: Int64] = [:]
        for person in everyone {
            for balance in try await services.expenses.balances(of: person) {
                let (low, high) = person.rawValue < balance.other.rawValue ? (person, balance.other) : (balance.other, person)
                let units = person == low ? balance.amount.minorUnits : -balance.amount.minorUnits
                let key = LedgerModel.PairKey(low: low, high: high, currency: balance.amount.currency)
                if let seen = kept[key], seen != units { return "the balance of \(name(low)) and \(name(high)) reads \(seen) and \(units)" }
                kept[key] = units
            }
        }
        let recounted = model.pairs()
        if kept != recounted {
            let keys = Set(kept.keys).union(recounted.keys).filter { kept[$0] != recounted[$0] }
            let lines = keys.map { "\(name($0.low)) and \(name($0.high)) in \($0.currency): kept \(kept[$0] ?? 0), recounted \(recounted[$0] ?? 0)" }
            return "the kept balances differ from the recount: " + lines.sorted().joined(separator: "; ")
        }
        let verified = try await services.verifier.verify()
        if !verified.isSound { return "verify: \(verified.summary) \(verified.differences) \(verified.brokenExpenses)" }
        for (id, entry) in model.live {
            guard let reader = entry.people.first(where: accounts.contains) else { continue }
            guard let expense = try await services.expenses.expense(id, for: reader) else { return "\(id) is gone for \(name(reader))" }
            if LedgerModel.Entry(expense) != entry {
                return "\(id) reads \(describe(expense)), written as \(entry.payers) paying, parts \(entry.parts)"
            }
        }
        return nil
    }

    // MARK: - Drafts

    /// A random draft among some of `pool`, `writer` paying or sharing; people in a random order
    /// (the order ties and pairs follow) and small amounts (so that units are left over).
    mutating func makeDraft(pool: [UserID], including writer: UserID) -> ExpenseDraft {
        let currency = random.next(3) == 0 ? Currency.jpy : .eur
        let shuffled = random.shuffled(pool)
        var participants = Array(shuffled.prefix(1 + random.next(min(6, pool.count))))
        let payers = Array(random.shuffled(pool).prefix(1 + random.next(min(3, pool.count))))
        if !participants.contains(writer), !payers.contains(writer) { participants.append(writer) }
        let amount = Int64(payers.count + random.next(currency == .jpy ? 50_000 : 9_000))
        let paid = random.partition(amount, into: payers.count, positive: true)
        let rule: SplitRule
        switch random.next(4) {
        case 0:
            let parts = random.partition(amount, into: participants.count, positive: false)
            rule = .exact(Dictionary(uniqueKeysWithValues: zip(participants, parts.map { Money(minorUnits: $0, currency: currency) })))
        case 1:
            let points = random.partition(10_000, into: participants.count, positive: false)
            rule = .percentages(Dictionary(uniqueKeysWithValues: zip(participants, points.map { Int($0) })))
        case 2:
            var shares = participants.map { _ in random.next(4) }
            if shares.allSatisfy({ $0 == 0 }) { shares[0] = 1 }
            rule = .shares(Dictionary(uniqueKeysWithValues: zip(participants, shares)))
        default:
            rule = .equal
        }
        return ExpenseDraft(
            description: "Walk", amount: Money(minorUnits: amount, currency: currency), day: try! Day("2026-11-22"), category: .general,
            payers: zip(payers, paid).map { Payer(user: $0, amount: Money(minorUnits: $1, currency: currency)) },
            participants: participants, rule: rule
        )
    }

    func describe(_ expense: Expense) -> String {
        "\(expense.id) \(expense.amount), paid by " + expense.payers.map { "\(name($0.user)) \($0.amount.minorUnits)" }.joined(separator: ", ")
            + "; parts " + expense.split.parts.map { "\(name($0.user)) \($0.amount.minorUnits)" }.joined(separator: ", ")
    }

    func describe(_ draft: ExpenseDraft) -> String {
        "\(draft.amount) among " + draft.participants.map(name).joined(separator: ", ") + " (\(draft.rule))"
    }
}

/// What `work` gave, or the error it threw.
private func result<T>(_ work: () async throws(FriendsError) -> T) async -> Result<T, FriendsError> {
    do {
        return .success(try await work())
    } catch {
        return .failure(error)
    }
}

private enum WalkError: Error, CustomStringConvertible {
    case unexpected(String)
    var description: String { if case .unexpected(let text) = self { text } else { "" } }
}

/// The ledger as the test works it out: each expense's payers and parts as written, each
/// payment's legs, and a recount of the pairs from them by the documented rule.
private struct LedgerModel {
    struct Entry: Equatable {
        var currency: Currency
        var payers: [Share]
        var parts: [Share]
        /// The version an edit or a delete is made from.
        var version: Int

        init(_ expense: Expense) {
            version = expense.version
            currency = expense.amount.currency
            payers = expense.payers.map { Share(user: $0.user, units: $0.amount.minorUnits) }
            parts = expense.split.parts.map { Share(user: $0.user, units: $0.amount.minorUnits) }
        }

        var people: [UserID] { Array(Set(payers.map(\.user) + parts.map(\.user))).sorted { $0.rawValue < $1.rawValue } }
    }

    struct Share: Equatable, CustomStringConvertible {
        var user: UserID
        var units: Int64
        var description: String { "\(user) \(units)" }
    }

    /// A payment: who paid whom, and the pairs it moved (`units` more that `debtor` owes `creditor`).
    struct Payment {
        var from: UserID
        var to: UserID
        var legs: [(creditor: UserID, debtor: UserID, units: Int64, currency: Currency)]

        init(_ settlement: Settlement) {
            from = settlement.from
            to = settlement.to
            legs = settlement.balanceDeltas.map { ($0.creditor, $0.debtor, $0.amount.minorUnits, $0.amount.currency) }
        }

        var people: Set<UserID> { Set([from, to] + legs.flatMap { [$0.creditor, $0.debtor] }) }
    }

    struct PairKey: Hashable {
        var low: UserID
        var high: UserID
        var currency: Currency
    }

    var live: [ExpenseID: Entry] = [:]
    var deleted: [ExpenseID: Entry] = [:]
    var settlements: [ExpenseID: Payment] = [:]

    /// Minor units each pair's high side owes its low side: those behind in an expense owe those
    /// ahead, each debt (in the order of the parts) filled from the first payer (in their order)
    /// with something left; a payment moves its legs.
    func pairs() -> [PairKey: Int64] {
        var pairs: [PairKey: Int64] = [:]
        func owe(_ debtor: UserID, _ creditor: UserID, _ units: Int64, _ currency: Currency) {
            if creditor.rawValue < debtor.rawValue {
                pairs[PairKey(low: creditor, high: debtor, currency: currency), default: 0] += units
            } else {
                pairs[PairKey(low: debtor, high: creditor, currency: currency), default: 0] -= units
            }
        }
        for entry in live.values {
            var net: [UserID: Int64] = [:]
            for payer in entry.payers { net[payer.user, default: 0] += payer.units }
            for part in entry.parts { net[part.user, default: 0] -= part.units }
            var creditors = entry.payers.compactMap { net[$0.user]! > 0 ? Share(user: $0.user, units: net[$0.user]!) : nil }
            var debtors = entry.parts.compactMap { net[$0.user]! < 0 ? Share(user: $0.user, units: -net[$0.user]!) : nil }
            var (c, d) = (0, 0)
            while c < creditors.count, d < debtors.count {
                let units = min(creditors[c].units, debtors[d].units)
                owe(debtors[d].user, creditors[c].user, units, entry.currency)
                creditors[c].units -= units
                debtors[d].units -= units
                if creditors[c].units == 0 { c += 1 }
                if debtors[d].units == 0 { d += 1 }
            }
        }
        for payment in settlements.values {
            for leg in payment.legs { owe(leg.debtor, leg.creditor, leg.units, leg.currency) }
        }
        return pairs.filter { $0.value != 0 }
    }

    /// Whether the two are in one expense or one payment together (a deleted expense does not count).
    func share(_ a: UserID, _ b: UserID) -> Bool {
        live.values.contains { Set($0.people).isSuperset(of: [a, b]) }
            || settlements.values.contains { $0.people.isSuperset(of: [a, b]) }
    }

    /// A contact linked to an account: its place everywhere goes to the account; a deleted
    /// expense the two were both in goes.
    mutating func rename(_ contact: UserID, to account: UserID) {
        let swap = { (user: UserID) in user == contact ? account : user }
        func renamed(_ entry: Entry) -> Entry {
            var entry = entry
            entry.payers = entry.payers.map { Share(user: swap($0.user), units: $0.units) }
            entry.parts = entry.parts.map { Share(user: swap($0.user), units: $0.units) }
            return entry
        }
        live = live.mapValues(renamed)
        deleted = deleted.filter { !Set($0.value.people).isSuperset(of: [contact, account]) }.mapValues(renamed)
        settlements = settlements.mapValues { payment in
            var payment = payment
            payment.from = swap(payment.from)
            payment.to = swap(payment.to)
            payment.legs = payment.legs.map { (swap($0.creditor), swap($0.debtor), $0.units, $0.currency) }
            return payment
        }
    }
}

/// A small random generator, seeded by the walk.
private struct Steps {
    var state: UInt64

    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(max(bound, 1)))
    }

    mutating func pick<T>(_ items: [T]) -> T? {
        items.isEmpty ? nil : items[next(items.count)]
    }

    mutating func shuffled<T>(_ items: [T]) -> [T] {
        var items = items
        for index in items.indices.reversed() where index > 0 { items.swapAt(index, next(index + 1)) }
        return items
    }

    /// `total` cut into `count` parts, each at least 1 when `positive` (then `total >= count`).
    mutating func partition(_ total: Int64, into count: Int, positive: Bool) -> [Int64] {
        let floor: Int64 = positive ? 1 : 0
        let spare = total - floor * Int64(count)
        let cuts = ((0..<(count - 1)).map { _ in Int64(next(Int(spare) + 1)) } + [0, spare]).sorted()
        return (0..<count).map { cuts[$0 + 1] - cuts[$0] + floor }
    }
}
