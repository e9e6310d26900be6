import Accounts
import Expenses
import FlowsApp
import Friends
import Primitives
import Testing

/// The composition root wires the areas so that they agree.
@Suite("AppContainer")
struct ContainerTests {
    @Test("expenses learn whom a user may name from their friends: an account that is not a friend, or no one's id, is refused")
    func peopleFromFriends() async throws {
        let container = AppContainer.inMemory()
        let ada = try await container.accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        let bob = try await container.accounts.signUp(email: "bob@example.com", displayName: "Bob", password: "correct horse")
        let stranger = UserID(rawValue: "00000000-0000-4000-8000-000000000000")
        let amount = Money(minorUnits: 1000, currency: .eur)
        let draft = { (people: [UserID]) in
            ExpenseDraft(
                description: "Tea", amount: amount, day: try Day("2026-11-22"), category: .food,
                payers: [Payer(user: ada.id, amount: amount)], participants: people, rule: .equal
            )
        }
        await #expect(throws: ExpensesError.unknownPeople([stranger])) {
            try await container.expenses.add(try draft([ada.id, stranger]), by: ada.id)
        }
        await #expect(throws: ExpensesError.unknownPeople([bob.id])) {
            try await container.expenses.add(try draft([ada.id, bob.id]), by: ada.id)
        }
        _ = try await container.friends.befriend(.email("bob@example.com"), by: ada.id)
        let tea = try await container.expenses.add(try draft([ada.id, bob.id]), by: ada.id)
        #expect(try await container.expenses.expense(tea.id, for: bob.id) == tea)
    }
}
