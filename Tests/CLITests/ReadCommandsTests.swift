import Foundation
import Testing

/// `flows balances`, `friends`, `expenses` and `activity` on a store filled from the command
/// line: text for people, JSON for programs, never a prompt.
@Suite("The read commands")
struct ReadCommandsTests {
    let flows: FlowsProcess

    init() throws {
        flows = try FlowsProcess()
    }

    /// Runs `arguments`, expecting it to succeed; its standard output.
    private func output(_ arguments: [String]) async throws -> String {
        let outcome = try await flows.run(arguments)
        #expect(outcome.status == 0, "flows \(arguments.joined(separator: " ")): \(outcome.stderr)")
        return outcome.stdout
    }

    /// The JSON object `flows COMMAND --json` prints.
    private func json(_ arguments: [String]) async throws -> [String: Any] {
        let text = try await output(arguments + ["--json"])
        #expect(text.hasSuffix("\n") && text.dropLast().split(separator: "\n").count == 1, "one line: \(text)")
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test("nobody signed in: each says so and fails, without a prompt")
    func signedOut() async throws {
        defer { flows.removeHome() }
        for command in ["balances", "friends", "groups", "expenses", "activity"] {
            let outcome = try await flows.run([command])
            #expect(outcome.status == 1)
            #expect(outcome.stderr == "flows: nobody is signed in here: run `flows run SignIn` first\n", "\(command): \(outcome.stderr)")
            #expect(outcome.stdout.isEmpty)
        }
        let badDay = try await flows.run(["expenses", "--since", "2026-02-30"])
        #expect(badDay.status == 2 && badDay.stderr.contains("--since: "), "\(badDay.stderr)")
    }

    @Test("balances, friends, expenses and activity, as text and as JSON")
    func reads() async throws {
        defer { flows.removeHome() }
        for (email, name) in [("bob@example.com", "Bob Stone"), ("ada@example.com", "Ada Lovelace")] {
            _ = try await output(["run", "SignUp", "--no-input", "--set", "email=\(email)", "--set", "display-name=\(name)", "--set", "password=correct horse"])
        }
        #expect(try await output(["balances"]) == "You are settled up with everyone.\n")
        #expect(try await output(["expenses"]) == "No expenses.\n")
        _ = try await output(["run", "AddFriend", "--no-input", "--set", "how=email", "--set", "value=bob@example.com"])
        _ = try await output(["run", "AddFriend", "--no-input", "--set", "how=contact", "--set", "value=Sam Park"])
        _ = try await output(["run", "SignIn", "--no-input", "--set", "email=bob@example.com", "--set", "password=correct horse"])
        _ = try await output(["run", "AddFriend", "--no-input", "--set", "how=email", "--set", "value=ada@example.com"])
        _ = try await output(["run", "SignIn", "--no-input", "--set", "email=ada@example.com", "--set", "password=correct horse"])
        _ = try await output([
            "run", "AddExpense", "--no-input", "--set", "description=Dinner", "--set", "amount=42.00", "--set", "with=bob@example.com",
            "--set", "split=equal", "--set", "day=2026-11-20",
        ])
        _ = try await output([
            "run", "AddExpense", "--no-input", "--set", "description=Sushi", "--set", "currency=JPY", "--set", "amount=3000", "--set", "with=Sam Park",
            "--set", "paid-by=Sam Park", "--set", "split=equal", "--set", "day=2026-11-22",
        ])

        #expect(try await output(["balances"]) == """
            In all, you are owed 21.00 EUR.
            In all, you owe 1500 JPY.
            Bob Stone owes you 21.00 EUR.
            You owe Sam Park 1500 JPY.

            """)
        let balances = try await json(["balances"])
        let lines = try #require(balances["balances"] as? [[String: Any]])
        #expect(lines.map { $0["name"] as? String } == ["Bob Stone", "Sam Park"])
        #expect(lines.map { ($0["amount"] as? [String: Any])?["minorUnits"] as? Int } == [2100, -1500])
        #expect((balances["totals"] as? [[String: Any]])?.map { $0["currency"] as? String } == ["EUR", "JPY"])

        #expect(try await output(["friends"]) == "Bob Stone: owes you 21.00 EUR\nSam Park (contact): you owe 1500 JPY\n")
        let friends = try #require(try await json(["friends"])["friends"] as? [[String: Any]])
        #expect(friends.map { $0["kind"] as? String } == ["account", "contact"])
        #expect(friends.first?["email"] as? String == "bob@example.com")

        #expect(try await output(["expenses"]) == """
            2026-11-22 Sushi, 3000 JPY, paid by Sam Park; your part 1500 JPY
            2026-11-20 Dinner, 42.00 EUR, paid by you; your part 21.00 EUR

            """)
        #expect(try await output(["expenses", "--until", "2026-11-21"]) == "2026-11-20 Dinner, 42.00 EUR, paid by you; your part 21.00 EUR\n")
        #expect(try await output(["expenses", "--since", "2026-11-21", "--person", "sam park"]).hasPrefix("2026-11-22 Sushi"))
        #expect(try await output(["expenses", "--person", "bob stone", "--since", "2026-11-21"]) == "No expenses.\n")
        let nobody = try await flows.run(["expenses", "--person", "Cy Young"])
        #expect(nobody.status == 1 && nobody.stderr == "flows: nobody you share expenses with is called Cy Young\n")
        let expenses = try #require(try await json(["expenses"])["expenses"] as? [[String: Any]])
        #expect(expenses.map { $0["description"] as? String } == ["Sushi", "Dinner"])
        #expect((expenses.last?["parts"] as? [[String: Any]])?.compactMap { $0["name"] as? String }.sorted() == ["Bob Stone", "you"])

        let activity = try await output(["activity", "--limit", "1"])
        #expect(activity.hasSuffix(" You added Sushi, 3000 JPY.\n"), "\(activity)")
        let lines2 = try #require(try await json(["activity"])["activity"] as? [[String: Any]])
        #expect(lines2.map { $0["kind"] as? String } == ["added", "added"])

        // A group made from the command line, as the issue's example does it, and an expense in it.
        #expect(try await output(["groups"]) == "No groups yet: make one with `flows run CreateGroup`.\n")
        let made = try await output([
            "run", "CreateGroup", "--no-input", "--set", "name=Kyoto trip", "--set", "kind=trip", "--set", "members=Bob Stone, Sam Park",
            "--set", "currency=JPY", "--json",
        ])
        let group = try #require((try JSONSerialization.jsonObject(with: Data(made.utf8)) as? [String: Any])?["group"] as? [String: Any], "\(made)")
        #expect((group["members"] as? [String])?.count == 3)
        _ = try await output([
            "run", "AddExpense", "--no-input", "--set", "description=Ramen", "--set", "currency=JPY", "--set", "amount=3000",
            "--set", "with=Bob Stone, Sam Park", "--set", "group=Kyoto trip", "--set", "split=equal", "--set", "day=2026-11-23",
        ])
        #expect(try await output(["groups"]) == "Kyoto trip (trip, 3 members): you are owed 2000 JPY\n")
        let groups = try #require(try await json(["groups"])["groups"] as? [[String: Any]])
        #expect(groups.map { $0["name"] as? String } == ["Kyoto trip"])
        #expect((groups.first?["balances"] as? [[String: Any]])?.map { $0["minorUnits"] as? Int } == [2000])
        #expect(try await output(["groups", "--archived"]) == "No archived groups.\n")
    }
}

/// A flow to look at, run without prompts: it shows its first screen and ends, status 0.
@Suite("Browsing without prompts")
struct BrowsingTests {
    let flows: FlowsProcess

    init() throws {
        flows = try FlowsProcess()
    }

    @Test("Expenses, Friends and Account with --no-input and nothing to answer print their screen and end with 0; a form still names what is missing")
    func browse() async throws {
        defer { flows.removeHome() }
        let signUp = try await flows.run(["run", "SignUp", "--no-input", "--set", "email=ada@example.com", "--set", "display-name=Ada Lovelace", "--set", "password=correct horse"])
        #expect(signUp.status == 0, "\(signUp.stderr)")
        for (flow, result, text) in [
            ("Expenses", "closed", "You are settled up with everyone."), ("Friends", "closed", "No friends yet"), ("Account", "cancelled", "Email: ada@example.com"),
        ] {
            let outcome = try await flows.run(["run", flow, "--no-input", "--json"])
            #expect(outcome.status == 0, "\(flow): \(outcome.stderr)")
            #expect(outcome.stdout == #"{"result":"\#(result)"}"# + "\n", "\(flow): \(outcome.stdout)")
            #expect(outcome.stderr.contains(text), "\(flow): \(outcome.stderr)")
        }
        let form = try await flows.run(["run", "AddExpense", "--no-input"])
        #expect(form.status == 2 && form.stderr.contains("pass --set"), "\(form.stderr)")
    }
}

/// Repeating expenses made when due by separate processes on one store.
@Suite("Repeating expenses across processes")
struct RepeatingAcrossProcessesTests {
    let flows: FlowsProcess

    init() throws {
        flows = try FlowsProcess()
    }

    @Test("four processes reading at once each make what is due, and together they make each occurrence once")
    func exactlyOnce() async throws {
        defer { flows.removeHome() }
        let signUp = try await flows.run(["run", "SignUp", "--no-input", "--set", "email=ada@example.com", "--set", "display-name=Ada Lovelace", "--set", "password=correct horse"])
        #expect(signUp.status == 0, "\(signUp.stderr)")
        // A weekly expense from 30 weeks back: 30 more are due by today.
        let today = Date()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let start = try #require(calendar.date(byAdding: .day, value: -7 * 30, to: today))
        let parts = calendar.dateComponents([.year, .month, .day], from: start)
        let day = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        let added = try await flows.run([
            "run", "AddExpense", "--no-input", "--set", "description=Gym", "--set", "amount=30.00", "--set", "day=\(day)", "--set", "repeats=weekly",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let outcomes = try await withThrowingTaskGroup(of: FlowsProcess.Outcome.self) { group in
            for _ in 0..<4 { group.addTask { try await flows.run(["expenses", "--json"]) } }
            var all: [FlowsProcess.Outcome] = []
            for try await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.allSatisfy { $0.status == 0 }, "\(outcomes.map(\.stderr))")
        let listed = try await flows.run(["expenses", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let expenses = try #require(object["expenses"] as? [[String: Any]])
        let days = expenses.compactMap { $0["day"] as? String }
        #expect(expenses.count == 31, "\(days)")
        #expect(Set(days).count == days.count, "a day twice: \(days.sorted())")
    }
}
