import AddExpenseFlow
import AddFriendFlow
import Accounts
import AuthenticatedFlow
import Expenses
import ExpensesFlow
import FlowKit
import FlowTestSupport
import Friends
import FriendsFlow
import Primitives
import SettleUpFlow
import Testing
import UserPreviewFlow

/// The Friends tab with its children stood in by their results, and the home acting on what a
/// friend's preview hands up.
@Suite("FriendsFlow")
struct FriendsFlowTests {
    let fixture = Fixture()

    private func start(_ user: User) -> FlowTest {
        FlowTest { [fixture] router in FriendsFlow(user: user, dependencies: fixture, router: router) }
    }

    /// Ada, signed in, with Bob as a friend.
    @Test("opening a friend starts their preview; what it asks of the flows above is the tab's result", arguments: [
        ("add-expense", true), ("settle-up", false),
    ])
    func handsUp(name: String, addExpense: Bool) async throws {
        let (ada, bob) = try await fixture.adaAndBob()
        let flow = start(ada)
        await flow.expectText("Bob Stone, settled up")
        await flow.expectChild(UserPreviewFlow.self, producing: addExpense ? .addExpense(bob) : .settleUp(bob))
        await flow.choose("friend", "bob-stone")
        await flow.expectResult(addExpense ? FriendsFlow.FlowResult.addExpense(bob) : .settleUp(bob))
        #expect(await flow.startedChildren == ["UserPreviewFlow"])
    }

    @Test("after a preview that removed or linked someone, the tab reads the friends again and says what changed")
    func afterAPreview() async throws {
        let (ada, bob) = try await fixture.adaAndBob()
        let sam = try await fixture.friends.addContact(name: "Sam Park", email: nil, by: ada.id)
        let flow = start(ada)
        await flow.expectText("Sam Park (contact), settled up")
        await flow.expectChild(UserPreviewFlow.self, producing: .removed(bob))
        await flow.choose("friend", "bob-stone")
        await flow.expectText("Bob Stone removed.")
        await flow.expectChild(UserPreviewFlow.self, producing: .linked(sam, to: bob))
        await flow.choose("friend", "sam-park")
        await flow.expectText("Sam Park is now Bob Stone's account: what you shared moved to it.")
        // Closed without a change: no notice.
        await flow.expectChild(UserPreviewFlow.self, producing: .closed)
        await flow.choose("friend", "sam-park")
        #expect(await flow.expectScreen("friends")?.status == nil)
        await flow.tap("back")
        await flow.expectResult(FriendsFlow.FlowResult.closed)
    }

    @Test("a friend added through AddFriend is listed and named in a notice; a cancelled add says nothing")
    func addFriend() async throws {
        let (ada, _) = try await fixture.adaAndBob()
        let cy = try await fixture.friends.addContact(name: "Cy Young", email: nil, by: ada.id)
        let flow = start(ada)
        await flow.expectText("Bob Stone, settled up")
        await flow.expectChild(AddFriendFlow.self, producing: .added(cy))
        await flow.tap("add-friend")
        await flow.expectText("Cy Young added.")
        await flow.expectText("Cy Young (contact), settled up")
        await flow.expectChild(AddFriendFlow.self, producing: .cancelled)
        await flow.tap("add-friend")
        #expect(await flow.expectScreen("friends")?.status == nil)
    }

    @Test("twenty friends at first, twenty more on request; typing narrows the list and starts again at twenty")
    func manyFriends() async throws {
        let ada = try await fixture.existingUser(signedIn: true)
        for index in 1...45 {
            _ = try await fixture.friends.addContact(name: "Person \(index)", email: nil, by: ada.id)
        }
        let flow = start(ada)
        func shown() async -> Int { await flow.expectScreen("friends")?.field("friend")?.input.options.count ?? -1 }
        #expect(await shown() == 20)
        await flow.expectText("Showing 20 of 45: type part of a name to find the others.")
        await flow.tap("more")
        #expect(await shown() == 40)
        await flow.tap("more")
        #expect(await shown() == 45)
        #expect(await flow.expectScreen("friends")?.action("more") == nil)
        await flow.fill("filter", "person 1")
        // Person 1 and Person 10 to 19.
        #expect(await shown() == 11)
        await flow.fill("filter", "")
        #expect(await shown() == 20)
    }

    @Test("balances owed to the user and by them carry their tones: the total, and each friend's phrase in the list")
    func tones() async throws {
        let (ada, bob) = try await fixture.adaAndBob()
        let cy = try await fixture.friends.addContact(name: "Cy Young", email: nil, by: ada.id)
        for (payer, other, cents) in [(ada.id, bob.id, Int64(2000)), (cy.id, ada.id, Int64(600))] {
            let amount = Money(minorUnits: cents, currency: .eur)
            _ = try await fixture.expenses.add(
                ExpenseDraft(
                    description: "Lunch", amount: amount, day: Fixture.sunday, category: .food,
                    payers: [Payer(user: payer, amount: amount)], participants: [payer, other], rule: .equal
                ),
                by: ada.id
            )
        }
        let flow = start(ada)
        await flow.expectText("In all, you are owed 7.00 EUR.")
        #expect(await flow.expectScreen("friends")?.tones == [
            TonedPhrase("In all, you are owed 7.00 EUR.", .positive), TonedPhrase("you owe 3.00 EUR", .negative),
            TonedPhrase("owes you 10.00 EUR", .positive),
        ])
        await flow.back()
        await flow.expectResult(FriendsFlow.FlowResult.closed)
    }

    @Test("the home starts what a preview handed up: AddExpense or SettleUp with that friend, and says what was recorded")
    func homeActsOnIt() async throws {
        let (ada, bob) = try await fixture.adaAndBob()
        let lunch = try await fixture.expenses.add(
            ExpenseDraft(
                description: "Lunch", amount: Money(minorUnits: 2000, currency: .eur), day: Fixture.sunday, category: .food,
                payers: [Payer(user: ada.id, amount: Money(minorUnits: 2000, currency: .eur))], participants: [ada.id, bob.id], rule: .equal
            ),
            by: ada.id
        )
        let flow = FlowTest { [fixture] router in AuthenticatedFlow(user: ada, dependencies: fixture, router: router) }
        await flow.expectChild(ExpensesFlow.self, producing: .closed)
        #expect(await flow.expectScreen("home")?.status == nil)
        await flow.expectChild(FriendsFlow.self, producing: .addExpense(bob))
        await flow.expectChild(AddExpenseFlow.self, producing: .added(lunch, names: [:], by: ada.id))
        await flow.tap("friends")
        await flow.expectText("Added Lunch, 20.00 EUR.")
        await flow.expectChild(FriendsFlow.self, producing: .settleUp(bob))
        let paid = Settlement(id: ExpenseID(rawValue: "s-1"), from: bob.id, to: ada.id, amount: Money(minorUnits: 1000, currency: .eur), day: Fixture.sunday)
        await flow.expectChild(SettleUpFlow.self, producing: .settled(paid, with: "Bob Stone"))
        await flow.tap("friends")
        await flow.expectText("Recorded: Bob Stone paid you 10.00 EUR.")
        await flow.expectChild(FriendsFlow.self, producing: .closed)
        await flow.tap("friends")
        #expect(await flow.expectScreen("home")?.status == nil)
        await flow.tap("quit")
        await flow.expectResult(AuthenticatedFlow.FlowResult.closed)
    }
}

/// A friend's preview against the live services on the fixture's store.
@Suite("UserPreviewFlow")
struct UserPreviewFlowTests {
    let fixture = Fixture()

    private func start(_ user: User, friend: Friend?, _ dependencies: (any UserPreviewFlow.Dependencies)? = nil) -> FlowTest {
        FlowTest { [fixture] router in UserPreviewFlow(user: user, friend: friend, dependencies: dependencies ?? fixture, router: router) }
    }

    private func expense(
        _ cents: Int64, paidBy payer: UserID, among people: [UserID], day: String, description: String = "Dinner", by user: UserID? = nil
    ) async throws {
        let amount = Money(minorUnits: cents, currency: .eur)
        _ = try await fixture.expenses.add(
            ExpenseDraft(
                description: description, amount: amount, day: try Day(day), category: .food,
                payers: [Payer(user: payer, amount: amount)], participants: people, rule: .equal
            ),
            by: user ?? payer
        )
    }

    @Test("others in a shared expense are named when the user knows them, else 'someone else'; several payers are listed")
    func names() async throws {
        let ada = try await fixture.existingUser(signedIn: true)
        let sam = try await fixture.friends.addContact(name: "Sam Park", email: nil, by: ada.id)
        let cy = try await fixture.friends.addContact(name: "Cy Young", email: nil, by: ada.id)
        // Dee has an account and is no longer Ada's friend: Ada added the tea Dee paid for the
        // three of them, paid her share back, and removed her.
        let dee = try await fixture.accounts.signUp(email: "dee@example.com", displayName: "Dee Dee", password: "correct horse")
        _ = try await fixture.friends.befriend(.email("dee@example.com"), by: ada.id)
        try await expense(300, paidBy: dee.id, among: [ada.id, sam.id, dee.id], day: "2026-11-19", description: "Tea", by: ada.id)
        _ = try await fixture.expenses.settle(from: ada.id, to: dee.id, amount: Money(minorUnits: 100, currency: .eur), day: try Day("2026-11-19"), by: ada.id)
        try await fixture.friends.remove(dee.id, by: ada.id)
        try await expense(900, paidBy: cy.id, among: [ada.id, sam.id, cy.id], day: "2026-11-20", by: ada.id)
        let amount = Money(minorUnits: 1200, currency: .eur)
        _ = try await fixture.expenses.add(
            ExpenseDraft(
                description: "Cabin", amount: amount, day: try Day("2026-11-21"), category: .travel,
                payers: [Payer(user: ada.id, amount: Money(minorUnits: 500, currency: .eur)), Payer(user: sam.id, amount: Money(minorUnits: 700, currency: .eur))],
                participants: [sam.id, cy.id], rule: .equal
            ),
            by: ada.id
        )
        let flow = start(ada, friend: sam)
        await flow.expectText("2026-11-21 Cabin: 12.00 EUR paid by you and Sam Park; no part for you, Sam Park's 6.00 EUR")
        await flow.expectText("2026-11-20 Dinner: 9.00 EUR paid by Cy Young; your part 3.00 EUR, Sam Park's 3.00 EUR")
        await flow.expectText("2026-11-19 Tea: 3.00 EUR paid by someone else; your part 1.00 EUR, Sam Park's 1.00 EUR")
        await flow.tap("back")
        await flow.expectResult(UserPreviewFlow.FlowResult.closed)
    }

    @Test("pages turn only where there are more: no newer on the first page, no older on the last")
    func pagesAtTheEnds() async throws {
        let ada = try await fixture.existingUser(signedIn: true)
        let sam = try await fixture.friends.addContact(name: "Sam Park", email: nil, by: ada.id)
        for day in 1...11 { try await expense(600, paidBy: ada.id, among: [ada.id, sam.id], day: "2026-11-\(10 + day)") }
        let flow = start(ada, friend: sam)
        let first = await flow.expectScreen("user-preview")
        #expect(first?.action("newer") == nil)
        await flow.tap("older")
        let last = await flow.expectScreen("user-preview")
        #expect(last?.action("older") == nil)
        #expect(last?.text.contains("2026-11-11 Dinner: 6.00 EUR paid by you; your part 3.00 EUR, Sam Park's 3.00 EUR") == true)
        await flow.tap("newer")
        #expect(await flow.expectScreen("user-preview") == first)
    }

    @Test("a friend's avatar is shown beside their preview, and stays while pages turn")
    func avatar() async throws {
        let bob = try await fixture.accounts.signUp(email: "bob@example.com", displayName: "Bob Stone", password: "correct horse")
        try await fixture.accounts.changeAvatar(to: .initials(.green), of: bob.id)
        let ada = try await fixture.existingUser(signedIn: true)
        let friend = try await fixture.friends.befriend(.email("bob@example.com"), by: ada.id)
        for day in 1...11 { try await expense(600, paidBy: ada.id, among: [ada.id, bob.id], day: "2026-11-\(10 + day)") }
        let flow = start(ada, friend: friend)
        #expect(await flow.expectScreen("user-preview")?.figures == [.initials("BS", colour: "green")])
        await flow.tap("older")
        #expect(await flow.expectScreen("user-preview")?.figures == [.initials("BS", colour: "green")])
    }

    @Test("a ledger that fails while reading shows its error on the preview; back leaves")
    func storeFails() async throws {
        let ada = try await fixture.existingUser(signedIn: true)
        let sam = try await fixture.friends.addContact(name: "Sam Park", email: nil, by: ada.id)
        let flow = start(ada, friend: sam, fixture.with { $0.expenses = FakeExpenses.down })
        await flow.expectError(nil, "The local store is unavailable: disk on fire")
        await flow.tap("back")
        await flow.expectResult(UserPreviewFlow.FlowResult.closed)
    }
}

