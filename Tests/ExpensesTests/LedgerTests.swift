import Expenses
import PropertyBased
import Primitives
import Testing

private let ann = UserID(rawValue: "a-ann")
private let bob = UserID(rawValue: "b-bob")
private let cy = UserID(rawValue: "c-cy")


private func expense(_ amount: Int64, payers: [(UserID, Int64)], among participants: [UserID], rule: SplitRule = .equal) throws -> Expense {
    try Expense(id: ExpenseID(rawValue: "x"), draft: ExpenseDraft(
        description: "Dinner", amount: eur(amount), day: try Day("2026-11-22"), category: .food,
        payers: payers.map { Payer(user: $0.0, amount: eur($0.1)) }, participants: participants, rule: rule
    ))
}

@Suite("Balances between people")
struct LedgerTests {
    @Test("one payer: each other participant owes them their part")
    func onePayer() throws {
        var balances = PairBalances()
        try balances.apply(try expense(3000, payers: [(ann, 3000)], among: [ann, bob, cy]).balanceDeltas)
        #expect(balances.balances(of: ann).map(\.amount) == [eur(1000), eur(1000)])
        #expect(balances.balances(of: bob).map { $0.other } == [ann])
        #expect(balances.balances(of: bob).map(\.amount) == [eur(-1000)])
    }

    @Test("several payers: everyone moves by exactly what they paid minus their part")
    func severalPayers() throws {
        var balances = PairBalances()
        try balances.apply(try expense(3000, payers: [(ann, 2000), (bob, 1000)], among: [ann, bob, cy]).balanceDeltas)
        let net = balances.netPositions()[.eur] ?? [:]
        #expect(net[ann] == 1000)
        #expect(net[bob] == nil)
        #expect(net[cy] == -1000)
    }

    @Test("the pairs an expense moves follow its order, not ids: a person put in another's place moves the same pairs")
    func pairsFollowTheOrder() throws {
        let (payer, dee, eve, owner) = (UserID(rawValue: "p-pat"), UserID(rawValue: "d-dee"), UserID(rawValue: "e-eve"), UserID(rawValue: "o-owner"))
        func moved(_ contact: UserID) throws -> [String] {
            try expense(
                1500, payers: [(payer, 1000), (contact, 500)], among: [owner, eve, dee],
                rule: .exact([owner: eur(0), eve: eur(500), dee: eur(1000)])
            ).balanceDeltas.map { "\($0.debtor.rawValue) owes \($0.creditor.rawValue) \($0.amount.minorUnits)" }
        }
        // Debts in the order of the parts, each filled from the payers in their order.
        #expect(try moved(cy) == ["e-eve owes p-pat 500", "d-dee owes p-pat 500", "d-dee owes c-cy 500"])
        // The contact linked to an account whose id sorts elsewhere: the same pairs, with the account.
        #expect(try moved(UserID(rawValue: "x-xan")) == ["e-eve owes p-pat 500", "d-dee owes p-pat 500", "d-dee owes x-xan 500"])
    }

    @Test("a personal expense changes no balance")
    func personal() throws {
        let own = try expense(1250, payers: [(ann, 1250)], among: [ann])
        #expect(own.isPersonal)
        #expect(own.balanceDeltas.isEmpty)
    }

    @Test("undoing an expense's deltas puts balances back exactly")
    func reverse() throws {
        var balances = PairBalances()
        let dinner = try expense(1000, payers: [(ann, 1000)], among: [ann, bob, cy])
        try balances.apply(dinner.balanceDeltas)
        try balances.apply(dinner.balanceDeltas.map(\.reversed))
        #expect(balances == PairBalances())
    }

    @Test("a write with one change beyond the bound changes nothing, not even its changes within it")
    func allOrNothing() throws {
        var balances = PairBalances()
        try balances.apply([PairBalances.Delta(creditor: ann, debtor: bob, amount: eur(500))])
        let before = balances
        let limit = LedgerLimits.maximumAmount
        #expect(throws: ExpensesError.beyondLimit(.eur)) {
            try balances.apply([
                PairBalances.Delta(creditor: ann, debtor: cy, amount: eur(700)),
                PairBalances.Delta(creditor: ann, debtor: bob, amount: eur(limit - 400)),
                PairBalances.Delta(creditor: ann, debtor: bob, amount: eur(-100)),
            ])
        }
        #expect(balances == before)
        // Two changes to one pair in one write add up, and a pair back at zero goes.
        try balances.apply([
            PairBalances.Delta(creditor: ann, debtor: bob, amount: eur(-600)),
            PairBalances.Delta(creditor: ann, debtor: bob, amount: eur(100)),
        ])
        #expect(balances == PairBalances())
    }

    @Test("an expense's rules: description, payers adding up", arguments: [
        ("", [(ann, Int64(1000))], ExpenseProblem.description),
        (String(repeating: "d", count: 101), [(ann, 1000)], .description),
        ("Tea\u{7}", [(ann, 1000)], .descriptionControlCharacters),
        // Bidirectional controls can draw "Tea 01" as "Tea 10"; zero-width characters hide.
        ("Tea \u{202E}01", [(ann, 1000)], .descriptionInvisibleCharacters),
        ("Tea \u{2066}01\u{2069}", [(ann, 1000)], .descriptionInvisibleCharacters),
        ("T\u{200B}ea", [(ann, 1000)], .descriptionInvisibleCharacters),
        ("Tea", [], .noPayer),
        ("Tea", [(ann, 500), (ann, 500)], .duplicatePayer),
        ("Tea", [(ann, 900)], .paymentsDoNotAddUp(paid: eur(900), amount: eur(1000))),
        ("Tea", [(ann, 1000), (bob, 0)], .payerAmount),
    ] as [(String, [(UserID, Int64)], ExpenseProblem)])
    func rules(description: String, payers: [(UserID, Int64)], problem: ExpenseProblem) {
        #expect(throws: problem) {
            try Expense(id: ExpenseID(rawValue: "x"), draft: ExpenseDraft(
                description: description, amount: eur(1000), day: try Day("2026-11-22"), category: .food,
                payers: payers.map { Payer(user: $0.0, amount: eur($0.1)) }, participants: [ann, bob], rule: .equal
            ))
        }
    }
}

extension LedgerTests {
    @Test("an expense kept before invisible characters were refused still reads; a new one with them is refused")
    func recordedText() throws {
        let draft = ExpenseDraft(
            description: "Tea \u{202E}01", amount: eur(1000), day: try Day("2026-11-22"), category: .food,
            payers: [Payer(user: ann, amount: eur(1000))], participants: [ann, bob], rule: .equal, note: "paid \u{2066}10\u{2069}"
        )
        let split = try #require(Split(amount: eur(1000), recorded: [(ann, eur(500)), (bob, eur(500))], rule: .equal))
        let kept = try Expense(id: ExpenseID(rawValue: "x"), draft: draft, recorded: split)
        #expect(kept.description == "Tea \u{202E}01")
        #expect(kept.note == "paid \u{2066}10\u{2069}")
        #expect(throws: ExpenseProblem.descriptionInvisibleCharacters) { try Expense(id: ExpenseID(rawValue: "y"), draft: draft) }
    }
}

extension LedgerTests {
    @Test("an expense has at most 200 people, paying and sharing together")
    func peopleLimit() throws {
        let people = (0..<200).map { UserID(rawValue: "p-\($0)") }
        func draft(among participants: [UserID], paidBy payer: UserID) throws -> ExpenseDraft {
            ExpenseDraft(
                description: "Party", amount: eur(20_000), day: try Day("2026-11-22"), category: .food,
                payers: [Payer(user: payer, amount: eur(20_000))], participants: participants, rule: .equal
            )
        }
        #expect(throws: Never.self) { try Expense(id: ExpenseID(rawValue: "x"), draft: try draft(among: people, paidBy: people[0])) }
        let oneMore = try draft(among: people, paidBy: ann)
        #expect(oneMore.problems[.participants] == .tooManyPeople)
        #expect(throws: ExpenseProblem.tooManyPeople) { try Expense(id: ExpenseID(rawValue: "x"), draft: oneMore) }
    }
}

@Suite("Simplifying debts")
struct DebtSimplifierTests {
    @Test("a chain collapses: Bob owes Ann, Cy owes Bob the same: Cy pays Ann")
    func chain() {
        let payments = DebtSimplifier.payments(for: [ann: 1000, bob: 0, cy: -1000], currency: .eur)
        #expect(payments == [SuggestedPayment(from: cy, to: ann, amount: eur(1000))])
    }

    @Test("finds the fewest payments when greedy would not: two independent pairs")
    func fewest() {
        let people = (0..<6).map { UserID(rawValue: "u\($0)") }
        // u0 +5, u1 -5 | u2 +7, u3 -3, u4 -4 | u5 0.
        let net: [UserID: Int128] = [people[0]: 5, people[1]: -5, people[2]: 7, people[3]: -3, people[4]: -4]
        let payments = DebtSimplifier.payments(for: net, currency: .eur)
        #expect(payments.count == 3)
        #expect(settles(net, payments))
    }

    /// Whether the payments bring every position to exactly zero.
    private func settles(_ net: [UserID: Int128], _ payments: [SuggestedPayment]) -> Bool {
        var after = net
        for payment in payments {
            guard payment.amount.isPositive else { return false }
            after[payment.from, default: 0] += Int128(payment.amount.minorUnits)
            after[payment.to, default: 0] -= Int128(payment.amount.minorUnits)
        }
        return after.values.allSatisfy { $0 == 0 }
    }

    @Test("exact at the extremes: positions at the largest a person can reach, where 64-bit sums of a group overflow", arguments: [2, 5, 14, 15, 40])
    func extremes(size: Int) async {
        let bounds: [Int128] = [
            Int128(LedgerLimits.maximumAmount), Int128(LedgerLimits.maximumAmount) * 9_000, Int128(Int64.max), Int128(Int64.max) * 3, 1,
        ]
        await propertyCheck(count: 100, input: Gen.int(in: 0...Int.max / 2)) { seed in
            var state = UInt64(seed)
            let people = (0..<size).map { UserID(rawValue: "p\($0)") }
            var net: [UserID: Int128] = [:]
            for person in people.dropFirst() {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let bound = bounds[Int(state >> 61) % bounds.count]
                net[person] = (state >> 33) % 2 == 0 ? bound : -bound
            }
            net[people[0]] = -net.values.reduce(0, +)
            let payments = DebtSimplifier.payments(for: net, currency: .eur)
            #expect(settles(net, payments))
            // Within what the store can hold (a position fits 64 bits), at most people minus one payments.
            if net.values.allSatisfy({ abs($0) <= Int128(Int64.max) }) {
                #expect(payments.count <= max(0, net.values.filter { $0 != 0 }.count - 1))
            }
        }
    }

    @Test("settles everyone, never with more payments than people minus one", arguments: [5, 14, 15, 60])
    func settlesEveryone(size: Int) async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int.max / 2)) { seed in
            var state = UInt64(seed)
            let people = (0..<size).map { UserID(rawValue: "p\($0)") }
            var net: [UserID: Int128] = [:]
            for person in people.dropFirst() {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                net[person] = Int128(state >> 44) - 500_000
            }
            net[people[0]] = -net.values.reduce(0, +)
            let payments = DebtSimplifier.payments(for: net, currency: .eur)
            #expect(settles(net, payments))
            #expect(payments.count <= max(0, net.values.filter { $0 != 0 }.count - 1))
        }
    }
}
