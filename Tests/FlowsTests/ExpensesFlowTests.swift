import Accounts
import Expenses
import ExpenseDetailFlow
import ExpensesFlow
import FlowKit
import FlowTestSupport
import Foundation
import Friends
import Preferences
import Primitives
import SettleUpFlow
import Testing

/// The Expenses tab and SettleUp against the live services on the fixture's store.
@Suite("ExpensesFlow and SettleUpFlow")
struct ExpensesFlowTests {
    let fixture = Fixture()

    private func lunch(_ units: Int64, paidBy payer: UserID, with other: UserID, description: String = "Lunch") async throws {
        let amount = Money(minorUnits: units, currency: .eur)
        _ = try await fixture.expenses.add(
            ExpenseDraft(description: description, amount: amount, day: Fixture.sunday, category: .food, payers: [Payer(user: payer, amount: amount)], participants: [payer, other], rule: .equal),
            by: payer
        )
    }

    @Test("nothing yet: settled up with everyone, no activity, no Settle up; exactly ten changes make one page")
    func emptyAndOnePage() async throws {
        let (ada, bob) = try await fixture.adaAndBob()
        let empty = FlowTest { [fixture] router in ExpensesFlow(user: ada.id, dependencies: fixture, router: router) }
        let first = await empty.expectScreen("expenses")
        #expect(first?.text == ["Balances:", "You are settled up with everyone.", "No activity yet: add an expense."])
        #expect(first?.action("settle-up") == nil)
        await empty.tap("back")
        await empty.expectResult(ExpensesFlow.FlowResult.closed)

        for index in 1...10 { try await lunch(200, paidBy: ada.id, with: bob.id, description: "Lunch \(index)") }
        let ten = FlowTest { [fixture] router in ExpensesFlow(user: ada.id, dependencies: fixture, router: router) }
        let page = await ten.expectScreen("expenses")
        #expect(page?.text.contains("Activity, newest first (1 to 10):") == true)
        #expect(page?.action("older") == nil)
        #expect(page?.text.contains("Bob Stone owes you 10.00 EUR.") == true)
        await ten.expectChild(SettleUpFlow.self, producing: .cancelled)
        await ten.tap("settle-up")
        await ten.expectScreen("expenses")
        await ten.tap("add-expense")
        await ten.expectResult(ExpensesFlow.FlowResult.addExpense)
    }

    @Test("a ledger that cannot be read says so on the tab, which can still be left")
    func failing() async throws {
        let (ada, _) = try await fixture.adaAndBob()
        let broken = fixture.with { $0.expenses = FakeExpenses.down }
        let flow = FlowTest { router in ExpensesFlow(user: ada.id, dependencies: broken, router: router) }
        let screen = await flow.expectScreen("expenses")
        #expect(screen?.status == .error("The local store is unavailable: disk on fire"))
        // Nothing was read, so nothing is said of balances or activity (not "settled up").
        #expect(screen?.text == [])
        await flow.tap("back")
        await flow.expectResult(ExpensesFlow.FlowResult.closed)

        let settling = FlowTest { router in SettleUpFlow(user: ada.id, dependencies: broken, router: router) }
        let pick = await settling.expectScreen("settle-up")
        #expect(pick?.status == .error("The local store is unavailable: disk on fire"))
        #expect(pick?.text == [])
    }

    @Test("someone seen only on an older page of activity is named there, not 'Someone'")
    func olderPageNames() async throws {
        let (ada, bob) = try await fixture.adaAndBob()
        let cy = try await fixture.accounts.signUp(email: "cy@example.com", displayName: "Cy Young", password: "correct horse")
        _ = try await fixture.friends.befriend(.email("cy@example.com"), by: ada.id)
        let amount = Money(minorUnits: 900, currency: .eur)
        let taxi = try await fixture.expenses.add(
            ExpenseDraft(description: "Taxi", amount: amount, day: Fixture.sunday, category: .transport, payers: [Payer(user: cy.id, amount: amount)], participants: [cy.id, ada.id], rule: .equal),
            by: cy.id
        )
        try await fixture.expenses.delete(taxi, by: cy.id)
        for index in 1...11 { try await lunch(200, paidBy: ada.id, with: bob.id, description: "Lunch \(index)") }
        let flow = FlowTest { [fixture] router in ExpensesFlow(user: ada.id, dependencies: fixture, router: router) }
        let first = await flow.expectScreen("expenses")
        #expect(first?.text.contains { $0.contains("Cy Young") } == false)
        await flow.tap("older")
        let older = await flow.expectScreen("expenses")
        #expect(older?.text.contains("Activity, newest first (11 to 13):") == true)
        #expect(older?.text.filter { $0.contains("Cy Young") }.count == 2)
        #expect(older?.text.contains { $0.contains("Someone") } == false)
    }

    @Test("settling up when owed records the other person paying the user; a failing ledger keeps the form; back with one person leaves")
    func settleUpOwed() async throws {
        let (ada, bob) = try await fixture.adaAndBob()
        try await lunch(2400, paidBy: ada.id, with: bob.id)
        let flow = FlowTest { [fixture] router in SettleUpFlow(user: ada.id, dependencies: fixture, router: router) }
        await flow.expectText("Bob Stone owes you 12.00 EUR.")
        await flow.fill("amount", "10")
        await flow.skipScreen()
        await flow.tap("record")
        guard case .settled(let settlement, let name) = await flow.result(as: SettleUpFlow.FlowResult.self) else {
            Issue.record("not settled")
            return
        }
        #expect(settlement.from == bob.id && settlement.to == ada.id && settlement.amount == Money(minorUnits: 1000, currency: .eur))
        #expect(name == "Bob Stone")
        #expect(try await fixture.expenses.balances(of: ada.id) == [Balance(other: bob.id, amount: Money(minorUnits: 200, currency: .eur))])

        let broken = fixture.with { $0.expenses = FakeExpenses.down }
        let failing = FlowTest { router in SettleUpFlow(user: ada.id, dependencies: broken, router: router) }
        #expect(await failing.expectScreen("settle-up")?.status == .error("The local store is unavailable: disk on fire"))
        await failing.cancel()
        await failing.expectResult(SettleUpFlow.FlowResult.cancelled)

        let leaving = FlowTest { [fixture] router in SettleUpFlow(user: ada.id, dependencies: fixture, router: router) }
        await leaving.expectText("Bob Stone owes you 2.00 EUR.")
        await leaving.back()
        await leaving.expectResult(SettleUpFlow.FlowResult.cancelled)
    }

    @Test("a balance that changed while its conversion was on screen is not converted: the screen says why and stays; back is the payment form")
    func conversionOfAChangedBalance() async throws {
        let (ada, bob) = try await fixture.adaAndBob()
        try await lunch(2400, paidBy: ada.id, with: bob.id)
        let yen = { (units: Int64) in Money(minorUnits: units, currency: .jpy) }
        let sushi = ExpenseDraft(
            description: "Sushi", amount: yen(3000), day: Fixture.sunday, category: .food, payers: [Payer(user: bob.id, amount: yen(3000))],
            participants: [ada.id, bob.id], rule: .equal
        )
        _ = try await fixture.expenses.add(sushi, by: bob.id)
        let flow = FlowTest { [fixture] router in SettleUpFlow(user: ada.id, dependencies: fixture, router: router) }
        await flow.skipScreen()
        await flow.choose("currency", "JPY")
        await flow.skipScreen()
        await flow.tap("convert")
        await flow.expectText("You owe Bob Stone 1500 JPY.")
        // Bob adds another while Ada looks at the rate.
        _ = try await fixture.expenses.add(sushi, by: bob.id)
        await flow.tap("convert-now")
        let refused = await flow.expectScreen("settle-up")
        #expect(refused?.status == .error("The balance in JPY changed since you read it (it is now -3000 JPY); nothing was converted."))
        #expect(refused?.fields.map(\.id) == ["into", "rate"])
        #expect(try await fixture.expenses.settlements(of: ada.id, page: PageRequest()) == [])
        await flow.back()
        #expect(await flow.expectScreen("settle-up")?.actions.map(\.id).contains("record") == true)
        await flow.cancel()
        await flow.expectResult(SettleUpFlow.FlowResult.cancelled)
    }

    @Test("an expense deleted meanwhile opens on why, with nothing to do with it but go back")
    func openedAfterDelete() async throws {
        let (ada, bob) = try await fixture.adaAndBob()
        try await lunch(1000, paidBy: ada.id, with: bob.id)
        let expense = try #require(try await fixture.expenses.expenses(of: ada.id, page: PageRequest(limit: 1)).first)
        try await fixture.expenses.delete(expense, by: bob.id)
        let flow = FlowTest { [fixture] router in ExpenseDetailFlow(user: ada.id, expense: expense.id, dependencies: fixture, router: router) }
        let screen = await flow.expectScreen("expense-detail")
        #expect(screen?.title == "An expense")
        #expect(screen?.text == [])
        #expect(screen?.status == .error("This expense is not there any more: it was deleted, or you were taken out of it."))
        #expect(screen?.actions.map(\.id) == ["back"])
        await flow.tap("back")
        await flow.expectResult(ExpenseDetailFlow.FlowResult.closed)
    }

    @Test("a delete or an edit made from a copy someone changed meanwhile writes nothing; the detail shows the expense as it is now and says what changed")
    func changedMeanwhile() async throws {
        let (ada, bob) = try await fixture.adaAndBob()
        try await lunch(1000, paidBy: ada.id, with: bob.id)
        let seen = try #require(try await fixture.expenses.expenses(of: ada.id, page: PageRequest(limit: 1)).first)
        let flow = FlowTest { [fixture] router in ExpenseDetailFlow(user: ada.id, expense: seen.id, dependencies: fixture, router: router) }
        await flow.expectText("Lunch")
        // Bob makes it 15.00 EUR while Ada looks at it.
        let more = Money(minorUnits: 1500, currency: .eur)
        let bobs = ExpenseDraft(
            description: "Lunch", amount: more, day: Fixture.sunday, category: .food, payers: [Payer(user: bob.id, amount: more)],
            participants: [ada.id, bob.id], rule: .equal
        )
        let changed = try await fixture.expenses.edit(seen, to: bobs, by: bob.id)
        await flow.tap("delete")
        await flow.expectText("Delete Lunch, 10.00 EUR?")
        await flow.tap("confirm-delete")
        await flow.expectText(
            "Someone changed this expense after you opened it: the amount (10.00 EUR → 15.00 EUR), who paid. It was not deleted; it is shown as it is now."
        )
        #expect(try await fixture.expenses.expense(seen.id, for: ada.id) == changed, "nothing was written")
        // Now at Bob's version, Ada edits; Bob changes it again before she saves.
        await flow.tap("edit")
        await flow.expectScreen("add-expense")
        var again = bobs
        again.description = "Team lunch"
        let latest = try await fixture.expenses.edit(changed, to: again, by: bob.id)
        await flow.tap("save")
        await flow.expectText(
            "Someone changed this expense after you opened it: the description (Lunch → Team lunch). Your edit was not saved; it is shown as it is now."
        )
        #expect(try await fixture.expenses.expense(seen.id, for: ada.id) == latest)
        await flow.tap("back")
        await flow.expectResult(ExpenseDetailFlow.FlowResult.closed)
    }
}
