import Accounts
import Expenses
import FlowTesting
import Friends
import Groups
import Primitives

/// What `given` steps can set up in a test container.
///
/// - `given account EMAIL PASSWORD NAME`: an account, signed out.
/// - `given signed-in EMAIL PASSWORD NAME`: an account, signed in.
/// - `given friends EMAIL EMAIL`: the two accounts are friends.
/// - `given contact EMAIL NAME [CONTACT-EMAIL]`: the account keeps a contact.
/// - `given expense EMAIL DESCRIPTION AMOUNT CURRENCY DAY PERSON...`: the account pays AMOUNT
///   on DAY, split equally between them and each PERSON (the email of an account they are
///   friends with, or the name of one of their friends or contacts); with no PERSON, it is the
///   account's own.
/// - `given expenses COUNT EMAIL DESCRIPTION AMOUNT CURRENCY DAY PERSON...`: COUNT of those,
///   described `DESCRIPTION 1` to `DESCRIPTION COUNT`, one day earlier each, from DAY back.
/// - `given group EMAIL NAME KIND CURRENCY PERSON...`: the account makes a group (KIND: trip,
///   home, couple or other) with each PERSON (as in an expense).
/// - `given group-expense EMAIL GROUP DESCRIPTION AMOUNT CURRENCY DAY PERSON...`: an expense as
///   above, in the account's group named GROUP; each PERSON an email or a friend's name.
/// - `given comment EMAIL DESCRIPTION TEXT`: the account comments TEXT on its newest expense
///   described DESCRIPTION.
/// - `given repeat EMAIL DESCRIPTION weekly|monthly|yearly [until DAY]`: the account's newest
///   expense described DESCRIPTION repeats from its day (monthly: on its day of the month), up
///   to DAY if given.
enum ScriptFixtures {
    static let known = "account, signed-in, friends, request, blocked, claims, contact, expense, expenses, group, group-expense, comment, repeat"

    static func prepare(_ container: AppContainer) -> ScriptRunner.Prepare {
        { words in
            do {
                try await prepare(words, in: container)
            } catch let error as FixtureError {
                throw error
            } catch {
                let reason = (error as? AccountsError)?.message ?? (error as? FriendsError)?.message ?? (error as? ExpensesError)?.message
                ?? (error as? GroupsError)?.message
                throw FixtureError("could not set up '\(words.joined(separator: " "))': \(reason ?? "\(error)")")
            }
        }
    }

    private static func prepare(_ words: [String], in container: AppContainer) async throws {
        switch words.first {
        case "account", "signed-in":
            guard words.count == 4 else { throw FixtureError("write it as: given \(words[0]) EMAIL PASSWORD NAME") }
            _ = try await container.accounts.signUp(email: words[1], displayName: words[3], password: words[2])
            if words[0] == "account" { try await container.accounts.signOut() }
        case "friends":
            guard words.count == 3 else { throw FixtureError("write it as: given friends EMAIL EMAIL") }
            // A request, and its acceptance.
            let user = try await account(words[1], in: container)
            try await container.friends.befriend(.email(words[2]), by: user.id)
        case "request":
            guard words.count == 3 else { throw FixtureError("write it as: given request EMAIL EMAIL (from the first to the second)") }
            let user = try await account(words[1], in: container)
            _ = try await container.friends.add(.email(words[2]), by: user.id)
        case "blocked":
            guard words.count == 3 else { throw FixtureError("write it as: given blocked EMAIL EMAIL (the first blocks the second)") }
            let user = try await account(words[1], in: container)
            let other = try await account(words[2], in: container)
            try await container.friends.block(other.id, by: user.id)
        case "claims":
            guard words.count == 2 else { throw FixtureError("write it as: given claims EMAIL (the account claims the contacts with its email)") }
            let user = try await account(words[1], in: container)
            try await container.friends.claimContacts(for: user.id)
        case "contact":
            guard words.count == 3 || words.count == 4 else { throw FixtureError("write it as: given contact EMAIL NAME [CONTACT-EMAIL]") }
            let user = try await account(words[1], in: container)
            _ = try await container.friends.addContact(name: words[2], email: words.count == 4 ? words[3] : nil, by: user.id)
        case "expense":
            guard words.count >= 6 else { throw FixtureError("write it as: given expense EMAIL DESCRIPTION AMOUNT CURRENCY DAY PERSON...") }
            try await addExpenses(count: 1, words: Array(words.dropFirst()), numbered: false, in: container)
        case "expenses":
            guard words.count >= 7, let count = Int(words[1]), (1...1_000).contains(count) else {
                throw FixtureError("write it as: given expenses COUNT EMAIL DESCRIPTION AMOUNT CURRENCY DAY PERSON... (COUNT from 1 to 1000)")
            }
            try await addExpenses(count: count, words: Array(words.dropFirst(2)), numbered: true, in: container)
        case "group":
            guard words.count >= 5, let kind = GroupKind(rawValue: words[3]), let currency = Currency(code: words[4]) else {
                throw FixtureError("write it as: given group EMAIL NAME KIND CURRENCY PERSON... (KIND: trip, home, couple or other)")
            }
            let user = try await account(words[1], in: container)
            var members: [UserID] = []
            for person in words.dropFirst(5) { members.append(try await self.person(person, for: user, in: container)) }
            _ = try await container.groups.create(GroupDraft(name: words[2], kind: kind, currency: currency, members: members), by: user.id)
        case "group-expense":
            guard words.count >= 7 else { throw FixtureError("write it as: given group-expense EMAIL GROUP DESCRIPTION AMOUNT CURRENCY DAY PERSON...") }
            let user = try await account(words[1], in: container)
            guard let group = try await container.groups.groups(of: user.id, archived: false).first(where: { $0.name == words[2] }) else {
                throw FixtureError("\(user.displayName.value) is in no group named \(words[2])")
            }
            try await addExpenses(count: 1, words: [words[1]] + Array(words.dropFirst(3)), numbered: false, group: group.id, in: container)
        case "comment":
            guard words.count == 4 else { throw FixtureError("write it as: given comment EMAIL DESCRIPTION TEXT") }
            let (user, expense) = try await newest(words[2], of: words[1], in: container)
            _ = try await container.expenses.comment(words[3], on: expense.id, by: user.id)
        case "repeat":
            let last = words.count == 6 && words[4] == "until" ? try? Day(words[5]) : nil
            guard words.count == 4 || last != nil, ["weekly", "monthly", "yearly"].contains(words[3]) else {
                throw FixtureError("write it as: given repeat EMAIL DESCRIPTION weekly|monthly|yearly [until yyyy-MM-dd]")
            }
            guard let recurring = container.recurring else { throw FixtureError("this store keeps no repeating expenses") }
            let (user, expense) = try await newest(words[2], of: words[1], in: container)
            let frequency: Recurrence.Frequency = switch words[3] {
            case "weekly": .weeks(1)
            case "monthly": .monthly(day: expense.day.day)
            default: .yearly
            }
            _ = try await recurring.repeatExpense(expense.id, every: frequency, until: last.map(Recurrence.End.on), by: user.id)
        default:
            throw FixtureError("unknown setup '\(words.joined(separator: " "))'; known: \(known)")
        }
    }

    /// `EMAIL DESCRIPTION AMOUNT CURRENCY DAY PERSON...`, `count` times on days going back.
    private static func addExpenses(count: Int, words: [String], numbered: Bool, group: GroupID? = nil, in container: AppContainer) async throws {
        let payer = try await account(words[0], in: container)
        guard let currency = Currency(code: words[3]) else { throw FixtureError("\(words[3]) is not a currency code") }
        let amount: Money
        do throws(Money.Problem) { amount = try Money(parsing: words[2], currency: currency) } catch { throw FixtureError("\(words[2]): \(error.message)") }
        let first: Day
        do throws(Day.Problem) { first = try Day(words[4]) } catch { throw FixtureError("\(words[4]): \(error.message)") }
        var people = [payer.id]
        for person in words.dropFirst(5) { people.append(try await self.person(person, for: payer, in: container)) }
        for index in 0..<count {
            guard let day = first.adding(days: -index) else { throw FixtureError("\(count) days before \(first) is not a day") }
            let draft = ExpenseDraft(
                description: numbered ? "\(words[1]) \(index + 1)" : words[1], amount: amount, day: day, category: .general,
                payers: [Payer(user: payer.id, amount: amount)], participants: people, rule: .equal, group: group
            )
            _ = try await container.expenses.add(draft, by: payer.id)
        }
    }

    /// An account, and its newest expense described `description`.
    private static func newest(_ description: String, of email: String, in container: AppContainer) async throws -> (User, Expense) {
        let user = try await account(email, in: container)
        guard let expense = try await container.expenses.expenses(of: user.id, page: PageRequest(limit: 1_000)).first(where: { $0.description == description })
        else { throw FixtureError("\(user.displayName.value) is in no expense described \(description)") }
        return (user, expense)
    }

    /// An account by its email.
    private static func account(_ email: String, in container: AppContainer) async throws -> User {
        // Looking an account up needs someone to look: any id will do for a fixture. The account
        // then reads itself in full.
        guard let found = try await container.accounts.profile(withEmail: email, for: UserID(rawValue: "fixture")),
            let user = try await container.accounts.users([found.id], for: found.id).first
        else {
            throw FixtureError("no account has the email \(email); set it up first with given account or given signed-in")
        }
        return user
    }

    /// A person in an expense: an account by email, or one of the payer's friends by name.
    private static func person(_ text: String, for payer: User, in container: AppContainer) async throws -> UserID {
        if text.contains("@") { return try await account(text, in: container).id }
        guard let friend = try await container.friends.friends(of: payer.id).first(where: { $0.name.value == text }) else {
            throw FixtureError("\(payer.displayName.value) has no friend or contact named \(text)")
        }
        return friend.id
    }

    struct FixtureError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
