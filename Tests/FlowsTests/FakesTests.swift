import Accounts
import Expenses
import Preferences
import Primitives
import Testing

@Suite("The tests' fakes")
struct FakesTests {
    @Test("a fake answers what the test gave, and an operation it was not given records an issue and throws")
    func loud() async throws {
        let ada = UserID(rawValue: "ada")
        let fake = FakeExpenses(recentPeople: { user in [user] })
        #expect(try await fake.recentPeople(of: ada) == [ada])
        await withKnownIssue {
            await #expect(throws: ExpensesError.self) { try await fake.balances(of: ada) }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("balances(of:) was called, but this test's FakeExpenses does not give it") }
        }
    }

    @Test("a service that is down throws its store's failure from every operation, and records nothing")
    func down() async {
        await #expect(throws: AccountsError.storeUnavailable("disk on fire")) {
            try await FakeAccounts.down.signIn(email: "ada@example.com", password: "correct horse")
        }
        await #expect(throws: ExpensesError.storeUnavailable("disk on fire")) { try await FakeExpenses.down.balances(of: UserID(rawValue: "ada")) }
    }

    @Test("namesakes are told apart by their labels, and a stream not given ends at once")
    func generated() async throws {
        let (ada, bob) = (UserID(rawValue: "ada"), UserID(rawValue: "bob"))
        let fake = FakeExpenses(
            expenses: { _, _ in [] },
            expensesSharedWithPage: { user, other, page in
                #expect(user == ada && other == bob && page.limit == 5)
                return []
            }
        )
        #expect(try await fake.expenses(of: ada, sharedWith: bob, page: PageRequest(offset: 0, limit: 5)).isEmpty)
        #expect(try await fake.expenses(of: ada, page: PageRequest(offset: 0, limit: 5)).isEmpty)
        var changes = FakePreferences().changes(of: ada).makeAsyncIterator()
        #expect(await changes.next() == nil)
    }
}
