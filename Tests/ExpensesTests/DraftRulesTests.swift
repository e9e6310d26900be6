import Expenses
import Primitives
import Testing

private let ann = UserID(rawValue: "a-ann")
private let bob = UserID(rawValue: "b-bob")

private func draft(
    description: String = "Dinner", amount: Int64 = 3000, payers: [(UserID, Int64)] = [(ann, 3000)],
    participants: [UserID] = [ann, bob], rule: SplitRule = .equal, note: String? = nil
) throws -> ExpenseDraft {
    ExpenseDraft(
        description: description, amount: eur(amount), day: try Day("2026-11-22"), category: .food,
        payers: payers.map { Payer(user: $0.0, amount: eur($0.1)) }, participants: participants, rule: rule, note: note
    )
}

@Suite("A draft's rules, field by field")
struct DraftRulesTests {
    @Test("a draft that can be recorded has no problems")
    func none() throws {
        #expect(try draft().problems.isEmpty)
    }

    @Test("every field's problem at once, each under its field, in the words Expense refuses with")
    func everyField() throws {
        let broken = try draft(
            description: " ", amount: 3000, payers: [(ann, 1000)], participants: [ann, bob],
            rule: .exact([ann: eur(1), bob: eur(1)]), note: String(repeating: "n", count: Expense.noteLimit + 1)
        )
        #expect(broken.problems == [
            .description: .description,
            .note: .note,
            .payments: .paymentsDoNotAddUp(paid: eur(1000), amount: eur(3000)),
            .split: .split(.exactSumMismatch(sum: eur(2), amount: eur(3000))),
        ])
        // Expense refuses the same draft with the first of them.
        #expect(throws: ExpenseProblem.description) { try Expense(id: ExpenseID(rawValue: "x"), draft: broken) }
    }

    @Test("what depends on an amount or on people is asked only once they are right")
    func dependents() throws {
        let noAmount = try draft(amount: 0, payers: [], participants: [])
        #expect(noAmount.problems == [.amount: .split(.amountNotPositive), .payers: .noPayer, .participants: .split(.noParticipants)])
    }

    @Test("one payment: in the expense's currency, more than zero, at most the ledger's largest")
    func payment() {
        #expect(ExpenseDraft.problem(payment: eur(100), of: eur(100)) == nil)
        #expect(ExpenseDraft.problem(payment: eur(0), of: eur(100)) == .payerAmount)
        #expect(ExpenseDraft.problem(payment: Money(minorUnits: 100, currency: .usd), of: eur(100)) == .payerCurrency)
        #expect(ExpenseDraft.problem(payment: eur(LedgerLimits.maximumAmount + 1), of: eur(100)) == .amountTooLarge(.eur))
    }

    @Test("payments that overflow add up to more than the amount, without trapping")
    func overflow() {
        let payers = [Payer(user: ann, amount: eur(LedgerLimits.maximumAmount)), Payer(user: bob, amount: eur(LedgerLimits.maximumAmount))]
        #expect(ExpenseDraft.problem(payments: payers, of: eur(100)) == .paymentsDoNotAddUp(paid: eur(2 * LedgerLimits.maximumAmount), amount: eur(100)))
    }

    @Test("the user adding it is in it, paying or sharing, as the recorded expense's people")
    func writer() throws {
        for (payers, participants, inIt) in [([bob], [bob], false), ([ann], [bob], true), ([bob], [ann, bob], true)] {
            #expect(ExpenseDraft.includes(ann, participants: participants, payers: payers) == inIt)
            let expense = try Expense(id: ExpenseID(rawValue: "x"), draft: draft(payers: payers.map { ($0, 3000) }, participants: participants))
            #expect(expense.people.contains(ann) == inIt)
        }
    }

    @Test("a percentage as typed, in basis points", arguments: [
        ("50", 5000), ("33.33", 3333), ("33,3", 3330), (" 100 ", 10_000), ("0", 0),
    ])
    func percentages(text: String, points: Int) {
        #expect(SplitRule.basisPoints(typed: text) == points)
    }

    @Test("what is not a percentage from 0 to 100 is nil", arguments: ["", "x", "100.01", "1000", "-5", "33.333", ".5", "5.", "1e2", "50%"])
    func notPercentages(text: String) {
        #expect(SplitRule.basisPoints(typed: text) == nil)
    }

    @Test("a share is a whole number up to the largest")
    func shares() throws {
        #expect(try SplitRule.share(typed: " 3 ") == 3)
        #expect(throws: SplitProblem.shareTooLarge) { try SplitRule.share(typed: "1.5") }
        #expect(throws: SplitProblem.shareTooLarge) { try SplitRule.share(typed: String(Split.maximumShare + 1)) }
        #expect(throws: SplitProblem.shareTooLarge) { try SplitRule.share(typed: "99999999999999999999999") }
    }
}
