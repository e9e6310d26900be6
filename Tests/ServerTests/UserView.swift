import Accounts
import Expenses
import Foundation
import Friends
import Groups
import Preferences
import Primitives

/// Everything a user reads of their view, through the services, as text: one way to tell that a
/// replica shows what the server does (docs/sync.md). Two views are equal exactly when every
/// read gives the same answer; a difference shows as a diff of lines.
struct UserView {
    let accounts: any AccountsService
    let friends: any FriendsService
    let expenses: any ExpensesService
    let groups: any GroupsService
    let preferences: any PreferencesService

    /// The view of `user`, one read a line.
    func lines(of user: UserID) async throws -> [String] {
        var lines: [String] = []
        func line(_ label: String, _ value: Any) { lines.append("\(label): \(value)") }
        line("account", try await accounts.users([user], for: user))
        line("avatar", try await accounts.avatar(of: user))
        line("preferences", try await preferences.preferences(of: user))
        let friendList = try await friends.friends(of: user)
        line("friends", friendList)
        for friend in friendList where !friend.isContact {
            line("avatar of \(friend.name)", try await accounts.avatar(of: friend.id, for: user))
        }
        line("requests", try await friends.requests(of: user))
        line("balances", try await expenses.balances(of: user))
        line("group balances", try await expenses.groupBalances(of: user))
        line("activity", try await expenses.activity(of: user, page: PageRequest(limit: 1_000)))
        line("deleted", try await expenses.deletedExpenses(of: user, page: PageRequest(limit: 1_000)))
        let everyExpense = try await expenses.expenses(of: user, page: PageRequest(limit: 1_000))
        line("expenses", everyExpense)
        var people = Set(friendList.map(\.id))
        for expense in everyExpense {
            people.formUnion(expense.people)
            line("history of \(expense.id)", try await expenses.history(of: expense.id, for: user))
            let comments = try await expenses.comments(on: expense.id, for: user)
            people.formUnion(comments.map(\.author))
            line("comments on \(expense.id)", comments)
        }
        let payments = try await expenses.settlements(of: user, page: PageRequest(limit: 1_000))
        line("payments", payments)
        for payment in payments {
            people.formUnion([payment.from, payment.to])
            line("history of \(payment.id)", try await expenses.paymentHistory(of: payment.id, for: user))
        }
        for group in try await groups.everyGroup(of: user) {
            people.formUnion(group.members)
            line("group", group)
            line("expenses in \(group.name)", try await expenses.expenses(in: group.id, for: user, page: PageRequest(limit: 1_000)))
            line("totals in \(group.name)", try await expenses.totals(in: group.id, for: user))
            line("debts in \(group.name)", try await expenses.debts(in: group.id, for: user))
            line("payments in \(group.name)", try await expenses.settlements(in: group.id, for: user, page: PageRequest(limit: 1_000)))
            line("to settle \(group.name)", try await expenses.suggestedPayments(in: group.id, currency: group.currency, for: user))
        }
        if let recurring = expenses as? any RecurringExpenses {
            line("series", try await recurring.series(of: user, after: try Day("2026-11-01")))
            for expense in everyExpense { line("series of \(expense.id)", try await recurring.series(containing: expense.id, for: user) as Any) }
        }
        let names = try await friends.names(of: people, for: user)
        line("names", names.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key)=\($0.value)" })
        return lines
    }

    /// The lines of `user`'s view that differ between two sets of services, each as both give it.
    static func differences(of user: UserID, _ one: UserView, _ other: UserView) async throws -> [String] {
        let (mine, theirs) = (try await one.lines(of: user), try await other.lines(of: user))
        var differences: [String] = []
        for index in 0..<max(mine.count, theirs.count) {
            let (left, right) = (index < mine.count ? mine[index] : "(none)", index < theirs.count ? theirs[index] : "(none)")
            if left != right { differences.append("- \(left)\n+ \(right)") }
        }
        return differences
    }
}
