import Expenses
import PropertyBased
import Primitives
import Testing

private let ann = UserID(rawValue: "a-ann")
private let bob = UserID(rawValue: "b-bob")
private let cy = UserID(rawValue: "c-cy")
private let dee = UserID(rawValue: "d-dee")
private let eve = UserID(rawValue: "e-eve")

private func money(_ units: Int64, _ currency: Currency = .eur) -> Money { Money(minorUnits: units, currency: currency) }

private func units(_ split: Split) -> [Int64] { split.parts.map(\.amount.minorUnits) }

@Suite("Splitting an amount")
struct SplitTests {
    @Test("10.00 three ways: 3.34, 3.33, 3.33, the extra cent to whoever is listed first, whatever their ids")
    func tenThreeWays() throws {
        let split = try Split(amount: money(1000), participants: [cy, ann, bob], rule: .equal)
        #expect(units(split) == [334, 333, 333])
        #expect(split.amount(for: cy) == money(334))
        #expect(split.extraUnits.map(\.user) == [cy])
        #expect(split.explanation { $0.rawValue } == [
            "c-cy gets 1 extra unit (0.01 EUR): the exact part leaves 1/3 of a unit, the largest remainder, and ties go to whoever is listed first.",
        ])
        let reordered = try Split(amount: money(1000), participants: [bob, cy, ann], rule: .equal)
        #expect(reordered.amount(for: bob) == money(334))
        // Another id in the same place (a contact linked to an account) gets the same part.
        let renamed = try Split(amount: money(1000), participants: [UserID(rawValue: "z-zoe"), ann, bob], rule: .equal)
        #expect(units(renamed) == units(split))
    }

    @Test("a recorded split keeps its parts, even those a tie gave by an older rule; parts no rule gives are refused")
    func recorded() throws {
        let rule = SplitRule.equal
        let worked = try Split(amount: money(1000), participants: [cy, ann, bob], rule: rule)
        #expect(units(worked) == [334, 333, 333])
        #expect(Split(amount: money(1000), recorded: worked.parts.map { ($0.user, $0.amount) }, rule: rule) == worked)
        // The unit went to Ann when ties followed ids: kept, and explained as a tie Ann won.
        let older = try #require(Split(amount: money(1000), recorded: [(cy, money(333)), (ann, money(334)), (bob, money(333))], rule: rule))
        #expect(units(older) == [333, 334, 333])
        #expect(older.extraUnits.map(\.user) == [ann])
        #expect(older.extraUnits.first?.wonTie == true)
        // Two units where one was left, a part off by more than a unit, or exact parts not as given: nil.
        #expect(Split(amount: money(1000), recorded: [(cy, money(334)), (ann, money(334)), (bob, money(332))], rule: rule) == nil)
        #expect(Split(amount: money(1000), recorded: [(cy, money(1000)), (ann, money(0)), (bob, money(0))], rule: rule) == nil)
        #expect(Split(amount: money(10), recorded: [(cy, money(6)), (ann, money(4))], rule: .exact([cy: money(5), ann: money(5)])) == nil)
    }

    @Test("0.01 among five: one cent to one person, four get nothing")
    func oneCentFiveWays() throws {
        let split = try Split(amount: money(1), participants: [eve, dee, cy, bob, ann], rule: .equal)
        #expect(units(split) == [1, 0, 0, 0, 0])
        #expect(split.extraUnits.first?.remainder == 1)
        #expect(split.extraUnits.first?.denominator == 5)
    }

    @Test("currencies with no decimals and with three", arguments: [
        (Currency.jpy, Int64(1000), [Int64(334), 333, 333]),
        (Currency.kwd, Int64(10_000), [Int64(3334), 3333, 3333]),
        (Currency.jpy, Int64(2), [Int64(1), 1, 0]),
    ])
    func otherCurrencies(currency: Currency, amount: Int64, expected: [Int64]) throws {
        let split = try Split(amount: money(amount, currency), participants: [ann, bob, cy], rule: .equal)
        #expect(units(split) == expected)
        #expect(split.parts.allSatisfy { $0.amount.currency == currency })
    }

    @Test("percentages that do not divide evenly")
    func percentages() throws {
        let split = try Split(amount: money(1000), participants: [ann, bob, cy], rule: .percentages([ann: 3333, bob: 3333, cy: 3334]))
        #expect(units(split) == [333, 333, 334])
        #expect(split.extraUnits.map(\.user) == [cy])
        #expect(split.extraUnits.first?.wonTie == false)

        let thirds = try Split(amount: money(10), participants: [ann, bob, cy], rule: .percentages([ann: 3333, bob: 3333, cy: 3334]))
        #expect(units(thirds).reduce(0, +) == 10)
        #expect(units(thirds) == [3, 3, 4])
    }

    @Test("shares 1:2:3")
    func shares() throws {
        let split = try Split(amount: money(1000), participants: [ann, bob, cy], rule: .shares([ann: 1, bob: 2, cy: 3]))
        #expect(units(split) == [167, 333, 500])
        #expect(split.explanation { $0.rawValue }.first?.contains("4/6 of a unit, the largest remainder") == true)
    }

    @Test("exact amounts must add up to the expense")
    func exact() throws {
        let split = try Split(amount: money(1000), participants: [ann, bob], rule: .exact([ann: money(250), bob: money(750)]))
        #expect(units(split) == [250, 750])
        #expect(split.explanation { $0.rawValue } == ["Every part is exact: no unit was left over."])
        #expect(throws: SplitProblem.exactSumMismatch(sum: money(900), amount: money(1000))) {
            try Split(amount: money(1000), participants: [ann, bob], rule: .exact([ann: money(150), bob: money(750)]))
        }
        #expect(SplitProblem.exactSumMismatch(sum: money(900), amount: money(1000)).message == "The parts add up to 9.00 EUR, not 10.00 EUR.")
    }

    @Test("a personal expense: one participant gets it all")
    func personal() throws {
        #expect(units(try Split(amount: money(1234), participants: [ann], rule: .equal)) == [1234])
    }

    @Test("refusals say why", arguments: [
        (money(0), [ann], SplitRule.equal, SplitProblem.amountNotPositive),
        (money(-5), [ann], .equal, .amountNotPositive),
        (money(100), [], .equal, .noParticipants),
        (money(100), [ann, ann], .equal, .duplicateParticipant),
        (money(100), [ann, bob], .percentages([ann: 5000, bob: 4000]), .percentagesSum(basisPoints: 9000)),
        (money(100), [ann, bob], .percentages([ann: 10_000]), .partsDoNotMatchParticipants),
        (money(100), [ann, bob], .shares([ann: 0, bob: 0]), .noShares),
        (money(100), [ann, bob], .shares([ann: -1, bob: 2]), .negativePart),
        (money(100), [ann], .exact([ann: Money(minorUnits: 100, currency: .usd)]), .currencyMismatch),
    ] as [(Money, [UserID], SplitRule, SplitProblem)])
    func refusals(amount: Money, participants: [UserID], rule: SplitRule, problem: SplitProblem) {
        #expect(throws: problem) { try Split(amount: amount, participants: participants, rule: rule) }
        #expect(!problem.message.isEmpty)
    }

    @Test("percentages that miss 100 % say by how much")
    func percentagesMessage() {
        #expect(SplitProblem.percentagesSum(basisPoints: 9999).message == "The percentages add up to 99.99 %, not 100 %.")
    }

    @Test("for thousands of random expenses, every mode adds up exactly and stays within a unit of the exact quota")
    func alwaysAddsUp() async {
        let people = (0..<8).map { UserID(rawValue: "user-\($0)") }
        await propertyCheck(
            count: 3_000,
            input: Gen.int64(in: 1...2_000_000_000_000), Gen.int(in: 1...8), Gen.int(in: 0...2), Gen.int(in: 0...1_000_000)
        ) { amount, count, mode, seed in
            let participants = Array(people.prefix(count))
            var generator = SplitMix(seed: UInt64(seed))
            let weights = participants.map { _ in Int(generator.next() % 10) + (mode == 1 ? 0 : 1) }
            let rule: SplitRule
            let used: [Int]
            switch mode {
            case 0:
                rule = .equal
                used = participants.map { _ in 1 }
            case 1:
                // Percentages: random basis points adding up to 10 000.
                var points = weights.map { $0 * 10_000 / max(1, weights.reduce(0, +)) }
                points[0] += 10_000 - points.reduce(0, +)
                rule = .percentages(Dictionary(uniqueKeysWithValues: zip(participants, points)))
                used = points
            default:
                rule = .shares(Dictionary(uniqueKeysWithValues: zip(participants, weights)))
                used = weights
            }
            guard let split = try? Split(amount: money(amount), participants: participants, rule: rule) else {
                Issue.record("refused \(amount) over \(count) by \(rule)")
                return
            }
            #expect(split.parts.map(\.amount.minorUnits).reduce(0, +) == amount)
            #expect(split.extraUnits.count < max(1, count))
            #expect(split.parts.allSatisfy { $0.amount.minorUnits >= 0 })
            let total = Int64(used.reduce(0, +))
            for (part, weight) in zip(split.parts, used) {
                let quota = total.dividingFullWidth(amount.multipliedFullWidth(by: Int64(weight))).quotient
                #expect(part.amount.minorUnits == quota || part.amount.minorUnits == quota + 1)
            }
        }
    }
}

/// A tiny deterministic generator for the property test's inner choices.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
