import AddContactFlow
import AddExpenseFlow
import Accounts
import Expenses
import FlowKit
import FlowTestSupport
import Friends
import PickCounterpartyFlow
import Preferences
import Primitives
import Testing

/// AddExpense and PickCounterparty against the live services on the fixture's store.
@Suite("AddExpenseFlow")
struct AddExpenseFlowTests {
    let fixture = Fixture()

    private func start(_ user: User, with friends: [Friend] = [], _ dependencies: any AddExpenseFlow.Dependencies) -> FlowTest {
        FlowTest { router in AddExpenseFlow(user: user.id, with: friends, dependencies: dependencies, router: router) }
    }

    /// Rows of the expense and contact tables: what a path wrote.
    private func written() throws -> (expenses: Int, contacts: Int) {
        try fixture.database.writer().read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM expense") ?? -1, try Int.fetchOne(db, sql: "SELECT count(*) FROM contact") ?? -1)
        }
    }

    @Test("text as it is typed moves the parts at every key and never complains; confirming it does; a fix clears the message as it is typed")
    func asTyped() async throws {
        let (ada, bob) = try await fixture.adaAndBob()
        let flow = start(ada, with: [bob], fixture)
        await flow.expectText("Parts: they show here once the amount and the split are complete.")
        await flow.send(.edit("amount", "1"))
        await flow.expectText("Parts: You 0.50 EUR, Bob Stone 0.50 EUR.")
        await flow.send(.edit("amount", "12."))
        #expect(await flow.expectScreen("add-expense")?.field("amount")?.error == nil)
        await flow.send(.fill("amount", "12."))
        await flow.expectError("amount", "Enter an amount like 12.50, 12,50 or 12 (no thousands separators).")
        await flow.send(.edit("amount", "12.5"))
        #expect(await flow.expectScreen("add-expense")?.field("amount")?.error == nil)
        await flow.expectText("Parts: You 6.25 EUR, Bob Stone 6.25 EUR.")
        await flow.choose("split", "shares")
        await flow.skipScreen()
        await flow.send(.edit("parts.bob-stone", "3"))
        await flow.expectText("Bob Stone (parts.bob-stone): 3 → 9.37 EUR")
        await flow.cancel()
        await flow.expectResult(AddExpenseFlow.FlowResult.cancelled)
        #expect(try written().expenses == 0)
    }

    @Test("leaving writes nothing: from the choice of people, from a new contact's form, from the form")
    func cancelWritesNothing() async throws {
        let (ada, _) = try await fixture.adaAndBob()
        let before = try written()
        let fromPicking = start(ada, fixture)
        await fromPicking.expectScreen("pick-counterparty")
        await fromPicking.tap("new-contact")
        await fromPicking.fill(["name": "Sam Park"])
        await fromPicking.skipScreen()
        await fromPicking.cancel()
        await fromPicking.expectScreen("pick-counterparty")
        await fromPicking.cancel()
        await fromPicking.expectResult(AddExpenseFlow.FlowResult.cancelled)

        let fromForm = start(ada, fixture)
        await fromForm.expectScreen("pick-counterparty")
        await fromForm.choose("with", "bob-stone")
        await fromForm.skipScreen()
        await fromForm.tap("done")
        await fromForm.fill(["description": "Dinner", "amount": "30"])
        await fromForm.expectText("Parts: You 15.00 EUR, Bob Stone 15.00 EUR.")
        await fromForm.back()
        await fromForm.expectResult(AddExpenseFlow.FlowResult.cancelled)
        #expect(try written() == before)
    }

    @Test("nobody paying is refused; a payer leaving the people leaves the payers; the form keeps what was typed")
    func payers() async throws {
        let (ada, bob) = try await fixture.adaAndBob()
        let flow = start(ada, with: [bob], fixture)
        await flow.fill(["description": "Taxi", "amount": "20"])
        await flow.skipScreen()
        await flow.choose("paid-by")
        await flow.skipScreen()
        await flow.tap("save")
        await flow.expectError("paid-by", "Say who paid.")
        #expect(await flow.expectScreen("add-expense")?.field("description")?.input == .text("Taxi"))
        await flow.choose("paid-by", "bob-stone")
        await flow.skipScreen()
        await flow.expectChild(PickCounterpartyFlow.self, producing: .picked(people: []))
        await flow.tap("people")
        let alone = await flow.expectScreen("add-expense")
        #expect(alone?.text == ["A personal expense: only you are in it."])
        #expect(alone?.field("paid-by") == nil)
        #expect(alone?.field("amount")?.input == .money("20", currency: "EUR", decimals: 2))
        await flow.tap("save")
        guard case .added(let expense, _, _) = await flow.result(as: AddExpenseFlow.FlowResult.self) else {
            Issue.record("not added")
            return
        }
        #expect(expense.payers.map(\.user) == [ada.id])
        #expect(expense.isPersonal)
    }

    @Test("one person left sharing takes the whole amount, whatever was typed in the table")
    func oneSharerLeft() async throws {
        let (ada, bob) = try await fixture.adaAndBob()
        let flow = start(ada, with: [bob], fixture)
        await flow.fill(["description": "Gift", "amount": "20"])
        await flow.skipScreen()
        await flow.choose("split", "percentages")
        await flow.fill(["parts.you": "70"])
        await flow.expectError("parts", "The percentages add up to 120.00 %, not 100 %.")
        await flow.choose("you-share", "no")
        await flow.expectText("Parts: Bob Stone 20.00 EUR.")
        await flow.tap("save")
        guard case .added(let expense, _, _) = await flow.result(as: AddExpenseFlow.FlowResult.self) else {
            Issue.record("not added")
            return
        }
        #expect(expense.split.parts.map(\.user) == [bob.id])
        #expect(expense.rule == .equal)
    }

    @Test("a new expense made to repeat monthly is the first of a series on its day of the month; an edit offers no Repeats")
    func repeats() async throws {
        let (ada, bob) = try await fixture.adaAndBob()
        let flow = start(ada, with: [bob], fixture)
        await flow.fill(["description": "Rent", "amount": "900", "day": "2027-01-31"])
        await flow.skipScreen()
        await flow.choose("repeats", "monthly")
        await flow.skipScreen()
        await flow.tap("save")
        guard case .added(let expense, _, _) = await flow.result(as: AddExpenseFlow.FlowResult.self) else {
            Issue.record("not added")
            return
        }
        let recurring = try #require(fixture.recurring)
        let series = try #require(try await recurring.series(containing: expense.id, for: bob.id))
        #expect(series.recurrence.frequency == .monthly(day: 31))
        #expect(series.recurrence.start == expense.day)
        #expect(try await recurring.series(of: ada.id, after: expense.day).map(\.next?.description) == ["2027-02-28"])

        let editing = FlowTest { [fixture] router in AddExpenseFlow(user: ada.id, editing: expense, with: [bob], dependencies: fixture, router: router) }
        #expect(await editing.expectScreen("add-expense")?.fields.contains { $0.id == "repeats" } == false)

        // Every two weeks until a day; every none is refused on its field, and nothing is saved.
        let fortnightly = start(ada, with: [bob], fixture)
        await fortnightly.fill(["description": "Cleaning", "amount": "60", "day": "2027-01-04"])
        await fortnightly.skipScreen()
        await fortnightly.choose("repeats", "weekly")
        await fortnightly.fill(["repeat-every": "0", "repeat-until": "2027-03-01"])
        await fortnightly.skipScreen()
        await fortnightly.tap("save")
        await fortnightly.expectError("repeat-every", "Repeat every 1 to 366 days, or every 1 to 52 weeks.")
        await fortnightly.fill("repeat-every", "2")
        await fortnightly.skipScreen()
        await fortnightly.tap("save")
        guard case .added(let cleaning, _, _) = await fortnightly.result(as: AddExpenseFlow.FlowResult.self) else {
            Issue.record("not added")
            return
        }
        let every = try #require(try await recurring.series(containing: cleaning.id, for: ada.id))
        #expect(every.recurrence.frequency == .weeks(2))
        #expect(every.recurrence.end == .on(try Day("2027-03-01")))
    }

    @Test("after people are picked again, what was chosen for each stays with that person, not with a row's place")
    func repickKeepsPeople() async throws {
        let (ada, _) = try await fixture.adaAndBob()
        _ = try await fixture.accounts.signUp(email: "alex@example.com", displayName: "Alex", password: "correct horse")
        let account = try await fixture.friends.befriend(.email("alex@example.com"), by: ada.id)
        let contact = try await fixture.friends.addContact(name: "Alex", email: nil, by: ada.id)
        let flow = start(ada, with: [contact, account], fixture)
        let first = await flow.expectScreen("add-expense")
        #expect(first?.field("paid-by")?.input.options.map(\.id) == ["you", "alex", "alex-2"])
        await flow.choose("paid-by", "alex-2")
        await flow.skipScreen()
        await flow.expectChild(PickCounterpartyFlow.self, producing: .picked(people: [account]))
        await flow.tap("people")
        // The account, second before, is the only Alex now: "alex". It still paid.
        let again = await flow.expectScreen("add-expense")
        #expect(again?.field("paid-by")?.input == .multiChoice([Choice(id: "you", label: "You"), Choice(id: "alex", label: "Alex")], selected: ["alex"]))
        await flow.cancel()
        await flow.expectResult(AddExpenseFlow.FlowResult.cancelled)
    }

    @Test("a ledger that fails says so on the form, which keeps every answer")
    func ledgerFails() async throws {
        let (ada, bob) = try await fixture.adaAndBob()
        let flow = start(ada, with: [bob], fixture.with { $0.expenses = FakeExpenses.down })
        await flow.fill(["description": "Taxi", "amount": "20"])
        await flow.skipScreen()
        await flow.tap("save")
        let screen = await flow.expectScreen("add-expense")
        #expect(screen?.status == .error("The local store is unavailable: disk on fire"))
        #expect(screen?.field("description")?.input == .text("Taxi"))
        await flow.cancel()
        await flow.expectResult(AddExpenseFlow.FlowResult.cancelled)
    }

    @Test("the choice of people lists whom the user shared with last first, then the others by name, each once")
    func recentFirst() async throws {
        let (ada, bob) = try await fixture.adaAndBob()
        let sam = try await fixture.friends.addContact(name: "Sam Park", email: nil, by: ada.id)
        let amy = try await fixture.friends.addContact(name: "Amy Wu", email: nil, by: ada.id)
        let eur = { (units: Int64) in Money(minorUnits: units, currency: .eur) }
        for (person, day) in [(bob, "2026-11-01"), (sam, "2026-11-03")] {
            _ = try await fixture.expenses.add(
                ExpenseDraft(description: "Lunch", amount: eur(600), day: try Day(day), category: .food, payers: [Payer(user: ada.id, amount: eur(600))], participants: [ada.id, person.id], rule: .equal),
                by: ada.id
            )
        }
        let flow = FlowTest { [fixture] router in PickCounterpartyFlow(user: ada.id, picked: [bob], dependencies: fixture, router: router) }
        let screen = await flow.expectScreen("pick-counterparty")
        #expect(screen?.field("with")?.input == .multiChoice([
            Choice(id: "sam-park", label: "Sam Park", detail: "a contact"),
            Choice(id: "bob-stone", label: "Bob Stone", detail: "bob@example.com"),
            Choice(id: "amy-wu", label: "Amy Wu", detail: "a contact"),
        ], selected: ["bob-stone"]))
        await flow.tap("done")
        await flow.expectResult(PickCounterpartyFlow.FlowResult.picked(people: [bob]))
        _ = amy
    }

    @Test("someone in an expense who is not among the user's friends is listed, picked, and kept (editing the people of another's expense)")
    func keepsOutsiders() async throws {
        let (ada, bob) = try await fixture.adaAndBob()
        // Sam is Bob's contact, not Ada's: Ada edits an expense Bob made with both of them.
        let sam = try await fixture.friends.addContact(name: "Sam Park", email: nil, by: bob.id)
        let flow = FlowTest { [fixture] router in PickCounterpartyFlow(user: ada.id, picked: [sam, bob], dependencies: fixture, router: router) }
        let screen = await flow.expectScreen("pick-counterparty")
        #expect(screen?.field("with")?.input == .multiChoice([
            Choice(id: "sam-park", label: "Sam Park", detail: "in this expense"),
            Choice(id: "bob-stone", label: "Bob Stone", detail: "bob@example.com"),
        ], selected: ["sam-park", "bob-stone"]))
        await flow.tap("done")
        await flow.expectResult(PickCounterpartyFlow.FlowResult.picked(people: [sam, bob]))
    }

    @Test("a contact added on the way (AddContact, stood in) is listed first and picked; leaving then ends 'left' with it, leaving without ends 'cancelled'")
    func leftWithContact() async throws {
        let (ada, _) = try await fixture.adaAndBob()
        let sam = Friend(id: UserID(rawValue: "sam"), name: try DisplayName("Sam Park"), kind: .contact(email: nil))
        let flow = FlowTest { [fixture] router in PickCounterpartyFlow(user: ada.id, dependencies: fixture, router: router) }
        await flow.expectScreen("pick-counterparty")
        await flow.expectChild(AddContactFlow.self, producing: .added(contact: sam))
        await flow.tap("new-contact")
        let screen = await flow.expectScreen("pick-counterparty")
        #expect(screen?.status == .notice("Sam Park is now one of your contacts, and picked."))
        #expect(screen?.field("with")?.input == .multiChoice([
            Choice(id: "sam-park", label: "Sam Park", detail: "a contact"),
            Choice(id: "bob-stone", label: "Bob Stone", detail: "bob@example.com"),
        ], selected: ["sam-park"]))
        await flow.expectChild(AddContactFlow.self, producing: .cancelled)
        await flow.tap("new-contact")
        await flow.expectScreen("pick-counterparty")
        await flow.cancel()
        await flow.expectResult(PickCounterpartyFlow.FlowResult.left(added: [sam]))

        let untouched = FlowTest { [fixture] router in PickCounterpartyFlow(user: ada.id, dependencies: fixture, router: router) }
        await untouched.expectScreen("pick-counterparty")
        await untouched.back()
        await untouched.expectResult(PickCounterpartyFlow.FlowResult.cancelled)
    }

    @Test("AddContact adds a contact through the Friends domain, refusing a name taken under its field; leaving writes nothing")
    func addContact() async throws {
        let (ada, _) = try await fixture.adaAndBob()
        _ = try await fixture.friends.addContact(name: "Sam Park", email: nil, by: ada.id)
        let flow = FlowTest { [fixture] router in AddContactFlow(user: ada.id, dependencies: fixture, router: router) }
        await flow.expectScreen("add-contact")
        await flow.fill(["name": "Sam Park"])
        await flow.skipScreen()
        await flow.fill(["email": "dee@"])
        await flow.expectError("email", EmailAddress.Problem.shape.message)
        await flow.tap("add")
        await flow.expectError("email", EmailAddress.Problem.shape.message)
        await flow.fill(["email": "dee@example.com"])
        await flow.skipScreen()
        await flow.tap("add")
        await flow.skipScreen()
        await flow.expectError("name", FriendsError.contactNameTaken(try DisplayName("Sam Park")).message)
        await flow.fill(["name": "Dee Dee"])
        await flow.skipScreen()
        await flow.tap("add")
        let dee = try #require(try await fixture.friends.friends(of: ada.id).first { $0.name.value == "Dee Dee" })
        #expect(dee.kind == .contact(email: try EmailAddress("dee@example.com")))
        await flow.expectResult(AddContactFlow.FlowResult.added(contact: dee))

        let before = try await fixture.friends.friends(of: ada.id)
        let left = FlowTest { [fixture] router in AddContactFlow(user: ada.id, dependencies: fixture, router: router) }
        await left.fill(["name": "Eve Adams"])
        await left.skipScreen()
        await left.cancel()
        await left.expectResult(AddContactFlow.FlowResult.cancelled)
        #expect(try await fixture.friends.friends(of: ada.id) == before)
    }
}
