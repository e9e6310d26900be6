import Accounts
import ArgumentParser
import Expenses
import FlowTerminal
import Foundation
import Friends
import Groups
import Primitives
import Rates

// Commands that read: what the signed-in user has, printed for people or, with --json, for
// programs (docs/cli.md). They never prompt: nobody signed in is a failure that says so.

/// The read commands (and `flows import`, which takes the same options) under a root of their own: `flows`'s root takes `--json` and `--server`
/// for the app, and the argument parser gives a parent's options precedence over its
/// subcommands'. `flows --help` lists them all the same.
struct ReadCommands: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flows",
        subcommands: [BalancesCommand.self, FriendsListCommand.self, GroupsListCommand.self, ExpensesListCommand.self, ActivityCommand.self, ImportCommand.self, ExportCommand.self, RatesCommand.self, SyncCommand.self]
    )

    /// Whether `arguments` run one of them.
    static func handles(_ arguments: [String]) -> Bool {
        guard let first = arguments.first else { return false }
        return configuration.subcommands.contains { $0.configuration.commandName == first }
    }
}

/// Where a read command reads from, and how it prints.
struct ReadOptions: ParsableArguments {
    @Flag(help: "Print JSON on standard output, for programs (its shape: docs/cli.md).")
    var json = false

    @Option(help: ArgumentHelp(
        "Read from the flows-server at URL instead of the store on this machine (env FLOWS_SERVER).", valueName: "URL"
    ))
    var server: String?

    var launch: LaunchOptions {
        LaunchOptions(json: json, noInput: true, answers: [], plain: true, color: .never, theme: nil, record: nil, server: server)
    }

    func validate() throws {
        try launch.validate()
    }
}

/// The signed-in user's services, and what read commands share.
struct Reader {
    let container: AppContainer
    let user: User

    /// The app on this machine's store or the server's, with its signed-in user; says why and
    /// fails when there is none.
    static func signedIn(_ options: ReadOptions) async throws -> Reader {
        try await signedIn(try Launcher.container(options: options.launch, location: try Launcher.storeLocation()))
    }

    /// `container` with its signed-in user; says why and fails when there is none.
    static func signedIn(_ container: AppContainer) async throws -> Reader {
        let session: StoredSession
        do throws(AccountsError) {
            session = try await container.accounts.storedSession()
        } catch {
            throw Self.failed(error.message)
        }
        switch session {
        case .signedIn(let user):
            // What is read includes the repeating expenses due by today, made now if no other
            // process has (each is made once); one that cannot be made now is made next time.
            _ = try? await container.recurring?.createDueOccurrences(through: container.today, for: user.id)
            return Reader(container: container, user: user)
        case .signedOut: throw Self.failed("nobody is signed in here: run `flows run SignIn` first")
        case .expired: throw Self.failed(StoredSession.expiredNotice)
        }
    }

    /// Says `message` on standard error; the exit status is 1.
    static func failed(_ message: String) -> ExitCode {
        Launcher.complain(message)
        return ExitCode.failure
    }

    /// The names of `people` as the user knows them (friends and contacts, and anyone sharing
    /// an expense with them); the user is "you".
    func names(_ people: Set<UserID>) async throws -> [UserID: String] {
        var names: [UserID: String] = [user.id: "you"]
        let others = people.subtracting([user.id])
        guard !others.isEmpty else { return names }
        do throws(FriendsError) {
            for (id, name) in try await container.friends.names(of: others, for: user.id) { names[id] = name.value }
        } catch {
            throw Self.failed(error.message)
        }
        return names
    }

    /// Runs an expenses call, failing with its message.
    func expenses<T>(_ work: () async throws(ExpensesError) -> T) async throws -> T {
        do throws(ExpensesError) { return try await work() } catch { throw Self.failed(error.message) }
    }

    /// Prints `value` as one line of JSON (keys sorted) on standard output.
    static func printJSON(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(value) else { return }
        StandardOutput.line(String(decoding: data, as: UTF8.self))
    }
}

/// `flows balances`: what each person owes the user, or the user them, and the totals.
struct BalancesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "balances",
        abstract: "Print what each person owes you, or you them, per currency, with the totals.",
        discussion: """
            Balances stay exact per currency. --in CODE adds the total in one currency, at the \
            ECB's reference rates of today (or the latest day before it), stated with their day: \
            a view, never stored.

            Never prompts. Exit status: 0 printed, 1 nobody signed in, no rate for a currency, or \
            the store or server failed.
            """
    )

    @OptionGroup var options: ReadOptions

    @Option(name: .customLong("in"), help: ArgumentHelp("Also give the total in this currency, at the ECB's reference rates.", valueName: "CODE"))
    var target: String?

    func validate() throws {
        if let target, Currency(code: target.uppercased()) == nil { throw ValidationError("--in \(target): not a currency Flows knows.") }
    }

    struct Output: Encodable {
        struct Line: Encodable {
            /// The other person's id; positive amounts: they owe the user.
            let person: String
            let name: String
            let amount: Money
        }
        let balances: [Line]
        /// Per currency, the sum of the balances.
        let totals: [Money]
        /// With `--in`: the totals in one currency, and the rates used.
        let converted: Converted?
    }

    struct Converted: Encodable {
        let total: Money
        let rates: [RatesShowCommand.Output]
    }

    func run() async throws {
        let reader = try await Reader.signedIn(options)
        let balances = try await reader.expenses { () throws(ExpensesError) in try await reader.container.expenses.balances(of: reader.user.id) }
        let names = try await reader.names(Set(balances.map(\.other)))
        let named = balances.map { (name: names[$0.other] ?? "someone else", balance: $0) }
            .sorted { ($0.name, $0.balance.amount.currency.code) < ($1.name, $1.balance.amount.currency.code) }
        var totals: [Currency: Int128] = [:]
        for balance in balances { totals[balance.amount.currency, default: 0] += Int128(balance.amount.minorUnits) }
        let currencies = totals.keys.sorted { $0.code < $1.code }
        var converted: ConvertedTotal?
        if let code = target, let currency = Currency(code: code.uppercased()) {
            let today = reader.container.today
            let table: RateTable
            let rates = try RatesCommand.service()
            do throws(RatesError) { table = try await rates.table() } catch { throw Reader.failed(error.message) }
            let amounts = balances.map(\.amount)
            guard let total = table.total(amounts, in: currency, on: today) else {
                throw Reader.failed("The balances cannot be given in \(currency.code): a currency of theirs has no rate on or before \(today).")
            }
            converted = total
        }
        if options.json {
            Reader.printJSON(Output(
                balances: named.map { .init(person: $0.balance.other.rawValue, name: $0.name, amount: $0.balance.amount) },
                totals: currencies.compactMap { currency in
                    Int64(exactly: totals[currency] ?? 0).map { Money(minorUnits: $0, currency: currency) }
                },
                converted: converted.map { Converted(total: $0.total, rates: $0.rates.map(RatesShowCommand.Output.init)) }
            ))
            return
        }
        guard !named.isEmpty else { return StandardOutput.line("You are settled up with everyone.") }
        for currency in currencies { if let line = BalanceWords.total(totals[currency] ?? 0, in: currency) { StandardOutput.line(line) } }
        if let converted { StandardOutput.line(converted.sentence()) }
        for entry in named { StandardOutput.line(BalanceWords.sentence(entry.balance.amount, name: entry.name)) }
    }
}

/// `flows friends`: the user's friends and contacts, with their balances.
struct FriendsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "friends",
        abstract: "Print your friends and contacts, each with what they owe you or you them.",
        discussion: "Never prompts. Exit status: 0 printed, 1 nobody signed in or the store or server failed."
    )

    @OptionGroup var options: ReadOptions

    struct Output: Encodable {
        struct Line: Encodable {
            let id: String
            let name: String
            /// `account` or `contact`.
            let kind: String
            let email: String?
            /// Positive: they owe the user.
            let balances: [Money]
        }
        let friends: [Line]
    }

    func run() async throws {
        let reader = try await Reader.signedIn(options)
        let friends: [Friend]
        do throws(FriendsError) { friends = try await reader.container.friends.friends(of: reader.user.id) } catch { throw Reader.failed(error.message) }
        let balances = try await reader.expenses { () throws(ExpensesError) in try await reader.container.expenses.balances(of: reader.user.id) }
        let byPerson = Dictionary(grouping: balances, by: \.other)
        let sorted = friends.sorted { $0.name.value.lowercased() < $1.name.value.lowercased() }
        func open(_ friend: Friend) -> [Money] {
            (byPerson[friend.id] ?? []).map(\.amount).filter { !$0.isZero }.sorted { $0.currency.code < $1.currency.code }
        }
        if options.json {
            Reader.printJSON(Output(friends: sorted.map { friend in
                let email: EmailAddress? = switch friend.kind {
                case .account(let email, _): email
                case .contact(let email): email
                }
                return .init(
                    id: friend.id.rawValue, name: friend.name.value, kind: friend.isContact ? "contact" : "account", email: email?.value,
                    balances: open(friend)
                )
            }))
            return
        }
        guard !sorted.isEmpty else { return StandardOutput.line("No friends yet: add someone with `flows run AddFriend`.") }
        for friend in sorted {
            let owed = open(friend)
            let words = owed.isEmpty ? "settled up" : owed.map(BalanceWords.phrase).joined(separator: ", ")
            StandardOutput.line("\(friend.name.value)\(friend.isContact ? " (contact)" : ""): \(words)")
        }
    }
}

/// `flows groups`: the groups the user is in, with where they stand in each.
struct GroupsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "groups",
        abstract: "Print your groups with where you stand in each, per currency.",
        discussion: "Never prompts. Exit status: 0 printed, 1 nobody signed in, or the store or server failed."
    )

    @OptionGroup var options: ReadOptions

    @Flag(help: "The archived groups instead of the open ones.")
    var archived = false

    struct Output: Encodable {
        struct Line: Encodable {
            let id: String
            let name: String
            let kind: String
            let currency: String
            let simplifyDebts: Bool
            let members: [String]
            /// Positive: the user is owed that much in the group.
            let balances: [Money]
        }
        let groups: [Line]
    }

    func run() async throws {
        let reader = try await Reader.signedIn(options)
        let groups: [Group]
        do throws(GroupsError) {
            groups = try await reader.container.groups.groups(of: reader.user.id, archived: archived)
        } catch {
            throw Reader.failed(error.message)
        }
        let balances = try await reader.expenses { () throws(ExpensesError) in try await reader.container.expenses.groupBalances(of: reader.user.id) }
        func standing(_ group: Group) -> [Money] {
            var net: [Currency: Int128] = [:]
            for balance in balances where balance.group == group.id { net[balance.amount.currency, default: 0] += Int128(balance.amount.minorUnits) }
            return net.filter { $0.value != 0 }.sorted { $0.key.code < $1.key.code }.map { Money(minorUnits: Int64(clamping: $0.value), currency: $0.key) }
        }
        if options.json {
            Reader.printJSON(Output(groups: groups.map { group in
                .init(
                    id: group.id.rawValue, name: group.name, kind: group.kind.rawValue, currency: group.currency.code, simplifyDebts: group.simplifyDebts,
                    members: group.members.map(\.rawValue), balances: standing(group)
                )
            }))
            return
        }
        guard !groups.isEmpty else {
            return StandardOutput.line(archived ? "No archived groups." : "No groups yet: make one with `flows run CreateGroup`.")
        }
        for group in groups {
            let owed = standing(group)
            let words = owed.isEmpty ? "settled up" : owed.map { BalanceWords.standing($0, you: true) }.joined(separator: ", ")
            StandardOutput.line("\(group.name) (\(group.kind.rawValue), \(group.members.count) members): \(words)")
        }
    }
}

/// `flows expenses`: the expenses the user is in, newest first.
struct ExpensesListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expenses",
        abstract: "Print the expenses you are in, newest first: who paid, and your part.",
        discussion: "Never prompts. Exit status: 0 printed, 1 nobody signed in, no such person or group, or the store or server failed; 2 a bad day."
    )

    @OptionGroup var options: ReadOptions

    @Option(help: ArgumentHelp("Only expenses on or after DAY (yyyy-MM-dd).", valueName: "DAY"))
    var since: String?

    @Option(help: ArgumentHelp("Only expenses on or before DAY (yyyy-MM-dd).", valueName: "DAY"))
    var until: String?

    @Option(help: ArgumentHelp("Only expenses shared with PERSON: a friend's or contact's name, any case.", valueName: "PERSON"))
    var person: String?

    @Option(help: ArgumentHelp("Only expenses filed under your group NAME (open or archived), any case.", valueName: "NAME"))
    var group: String?

    struct Output: Encodable {
        struct Share: Encodable {
            let person: String
            let name: String
            let amount: Money
        }
        struct Line: Encodable {
            let id: String
            let day: String
            let description: String
            let category: String
            let amount: Money
            let paidBy: [Share]
            let parts: [Share]
            let note: String?
        }
        let expenses: [Line]
    }

    func validate() throws {
        for (flag, text) in [("--since", since), ("--until", until)] {
            guard let text else { continue }
            do throws(Day.Problem) { _ = try Day(text) } catch { throw ValidationError("\(flag): \(error.message)") }
        }
    }

    func run() async throws {
        let reader = try await Reader.signedIn(options)
        let first = try since.map { text throws in try Day(text) }
        let last = try until.map { text throws in try Day(text) }
        var all: [Expense] = []
        var page = PageRequest(limit: 1_000)
        while true {
            let batch = try await reader.expenses { () throws(ExpensesError) in try await reader.container.expenses.expenses(of: reader.user.id, page: page) }
            all += batch
            guard batch.count == page.limit else { break }
            page = page.next
        }
        var expenses = all.filter { expense in (first.map { expense.day >= $0 } ?? true) && (last.map { expense.day <= $0 } ?? true) }
        if let group {
            let wanted = group.trimmingCharacters(in: .whitespaces).lowercased()
            let ids = Set(await reader.container.groups.names(of: reader.user.id).filter { $0.value.lowercased() == wanted }.map(\.key))
            guard !ids.isEmpty else { throw Reader.failed("you have no group named \(group)") }
            expenses = expenses.filter { $0.group.map(ids.contains) ?? false }
        }
        // Anyone the user shares an expense with may be named, whatever the days asked for.
        let names = try await reader.names(Set(all.flatMap(\.people)))
        if let person {
            let wanted = person.trimmingCharacters(in: .whitespaces).lowercased()
            let ids = Set(names.filter { $0.key != reader.user.id && $0.value.lowercased() == wanted }.map(\.key))
            guard !ids.isEmpty else { throw Reader.failed("nobody you share expenses with is called \(person)") }
            expenses = expenses.filter { !$0.people.isDisjoint(with: ids) }
        }
        func name(_ id: UserID) -> String { names[id] ?? "someone else" }
        if options.json {
            Reader.printJSON(Output(expenses: expenses.map { expense in
                .init(
                    id: expense.id.rawValue, day: expense.day.description, description: expense.description, category: expense.category.rawValue,
                    amount: expense.amount,
                    paidBy: expense.payers.map { .init(person: $0.user.rawValue, name: name($0.user), amount: $0.amount) },
                    parts: expense.split.parts.map { .init(person: $0.user.rawValue, name: name($0.user), amount: $0.amount) },
                    note: expense.note
                )
            }))
            return
        }
        guard !expenses.isEmpty else { return StandardOutput.line("No expenses.") }
        for expense in expenses {
            let payers = expense.payers.map { expense.payers.count == 1 ? name($0.user) : "\(name($0.user)) \($0.amount)" }.joined(separator: ", ")
            let mine = expense.split.parts.first { $0.user == reader.user.id }.map { "; your part \($0.amount)" } ?? "; not your part"
            StandardOutput.line("\(expense.day) \(expense.summary), paid by \(payers)\(mine)")
        }
    }
}

/// `flows activity`: what happened to the user's expenses and payments, newest first.
struct ActivityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activity",
        abstract: "Print the newest activity of your expenses and payments: who added, changed, deleted or paid what.",
        discussion: "Never prompts. Exit status: 0 printed, 1 nobody signed in or the store or server failed."
    )

    @OptionGroup var options: ReadOptions

    @Option(help: "How many lines, newest first (at most 1000).")
    var limit = 20

    struct Output: Encodable {
        struct Line: Encodable {
            let kind: String
            let by: String
            let name: String
            let subject: String
            let summary: String
            let at: Date
        }
        let activity: [Line]
    }

    func validate() throws {
        guard (1...1_000).contains(limit) else { throw ValidationError("--limit takes a number from 1 to 1000") }
    }

    func run() async throws {
        let reader = try await Reader.signedIn(options)
        let activity = try await reader.expenses { () throws(ExpensesError) in
            try await reader.container.expenses.activity(of: reader.user.id, page: PageRequest(limit: limit))
        }
        let names = try await reader.names(Set(activity.map(\.actor)))
        if options.json {
            Reader.printJSON(Output(activity: activity.map { line in
                .init(
                    kind: line.kind.rawValue, by: line.actor.rawValue, name: names[line.actor] ?? "someone else", subject: line.subject.rawValue,
                    summary: line.summary, at: line.at
                )
            }))
            return
        }
        guard !activity.isEmpty else { return StandardOutput.line("No activity yet.") }
        let zone = TimeZone.current
        for line in activity {
            let who = line.actor == reader.user.id ? "You" : names[line.actor] ?? "Someone else"
            StandardOutput.line("\(Day.minute(at: line.at, in: zone)) \(ActivityWords.sentence(line, who: who))")
        }
    }
}
