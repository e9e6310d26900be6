import FlowsApp
import Foundation
import Testing

/// The `flows` executable end to end: a temporary FLOWS_HOME per test, answers on stdin.
@Suite("The flows CLI")
struct CLITests {
    let flows: FlowsProcess

    init() throws {
        flows = try FlowsProcess()
    }

    private let signUpAnswers = "ada@example.com\ncorrect horse\nAda Lovelace\n"

    @Test("flows list names every flow of the catalog, with a line about each")
    func list() async throws {
        defer { flows.removeHome() }
        let outcome = try await flows.run(["list"])
        #expect(outcome.status == 0)
        let names = outcome.stdout.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(names == FlowCatalog.entries.map(\.name))
        #expect(outcome.stdout.split(separator: "\n").allSatisfy { $0.split(separator: " ").count > 3 })
    }

    @Test("sign up, sign in with the same answers, then flows opens the home")
    func signUpSignInHome() async throws {
        defer { flows.removeHome() }
        let signUp = try await flows.run(["run", "SignUp", "--json"], input: signUpAnswers)
        #expect(signUp.status == 0, "\(signUp.stderr)")
        #expect(signUp.stdout.contains(#""result":"signed-up""#))
        #expect(signUp.stdout.contains(#""email":"ada@example.com""#))
        let session = flows.home.appendingPathComponent("session")
        let mode = try FileManager.default.attributesOfItem(atPath: session.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)

        let signIn = try await flows.run(["run", "SignIn", "--json"], input: signUpAnswers)
        #expect(signIn.status == 0, "\(signIn.stderr)")
        #expect(signIn.stdout.contains(#""result":"signed-in""#))

        // The home opens on the Expenses tab: 1) Add an expense, 2) Reports, 3) Back; then the
        // home's menu: 1) Add an expense, 2) Sign out, 3) Quit.
        let app = try await flows.run(["--json"], input: "3\n3\n")
        #expect(app.status == 0, "\(app.stderr)")
        #expect(app.stderr.contains("No activity yet: add an expense."))
        #expect(app.stderr.contains("Signed in as Ada Lovelace <ada@example.com>."))
        #expect(app.stdout.contains(#""result":"closed""#))
    }

    @Test("a wrong password prints 'wrong email or password' and exits 1")
    func wrongPassword() async throws {
        defer { flows.removeHome() }
        _ = try await flows.run(["run", "SignUp"], input: signUpAnswers)
        let outcome = try await flows.run(["run", "SignIn"], input: "ada@example.com\nnot my password\n")
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("wrong email or password"))
    }

    @Test("--no-input exits 2 naming what is missing and the flag to pass")
    func noInput() async throws {
        defer { flows.removeHome() }
        let outcome = try await flows.run(["run", "SignIn", "--no-input"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("no answer for Email (email); pass --set email=VALUE"))
        #expect(!FileManager.default.fileExists(atPath: flows.home.appendingPathComponent("flows.sqlite").path))
    }

    @Test("--no-input with every answer given by --set runs to the end")
    func noInputComplete() async throws {
        defer { flows.removeHome() }
        let outcome = try await flows.run([
            "run", "signup", "--no-input", "--set", "email=grace@example.com", "--set", "password=hopper=1906",
            "--set", "display-name=Grace Hopper", "--json",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains(#""displayName":"Grace Hopper""#))
        let wrong = try await flows.run(["run", "SignIn", "--no-input", "--set", "email=grace@example.com", "--set", "password=nope-nope"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("flows: wrong email or password"))
    }

    @Test("AddExpense without prompts: --set for every field, with= by email, a table's cells by parts.ROW, --json prints each part")
    func addExpenseScripted() async throws {
        defer { flows.removeHome() }
        for (email, name) in [("ada@example.com", "Ada Lovelace"), ("bob@example.com", "Bob Stone")] {
            let signUp = try await flows.run(["run", "SignUp", "--no-input", "--set", "email=\(email)", "--set", "display-name=\(name)", "--set", "password=correct horse"])
            #expect(signUp.status == 0, "\(signUp.stderr)")
        }
        // Bob asks Ada; Ada, asking Bob in turn, accepts.
        let asked = try await flows.run(["run", "AddFriend", "--no-input", "--set", "how=email", "--set", "value=ada@example.com", "--json"])
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(asked.stdout.contains(#""result":"requested""#))
        let signIn = try await flows.run(["run", "SignIn", "--no-input", "--set", "email=ada@example.com", "--set", "password=correct horse"])
        #expect(signIn.status == 0, "\(signIn.stderr)")
        let friend = try await flows.run(["run", "AddFriend", "--no-input", "--set", "how=email", "--set", "value=bob@example.com", "--json"])
        #expect(friend.status == 0, "\(friend.stderr)")
        #expect(friend.stdout.contains(#""result":"added""#))

        let dinner = try await flows.run([
            "run", "AddExpense", "--no-input", "--set", "description=Dinner", "--set", "amount=42.00",
            "--set", "with=bob@example.com", "--set", "split=equal", "--json",
        ])
        #expect(dinner.status == 0, "\(dinner.stderr)")
        #expect(dinner.stdout.contains(#""result":"added""#))
        #expect(dinner.stdout.contains(#""parts":[{"amount":"21.00","name":"You""#))
        #expect(dinner.stdout.contains(#"{"amount":"21.00","name":"Bob Stone""#))

        let shares = try await flows.run([
            "run", "AddExpense", "--no-input", "--set", "description=Cab", "--set", "amount=10", "--set", "with=Bob Stone",
            "--set", "split=shares", "--set", "parts.you=2", "--set", "parts.bob-stone=1", "--json",
        ])
        #expect(shares.status == 0, "\(shares.stderr)")
        #expect(shares.stdout.contains(#""parts":[{"amount":"6.67","name":"You""#))
        #expect(shares.stdout.contains(#""extraUnits":["You get 1 extra unit (0.01 EUR)"#))

        let refused = try await flows.run(["run", "AddExpense", "--no-input", "--set", "description=Dinner", "--set", "amount=12.345", "--set", "with=bob@example.com"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("the answer for amount was refused: EUR has 2 decimals at most."))
        let missing = try await flows.run(["run", "AddExpense", "--no-input", "--set", "with=bob@example.com"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no answer for Description (description); pass --set description=VALUE"))

        // What was written recounts to the balances kept.
        let verify = try await flows.run(["verify"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout == "Ledger verified: 2 expenses, 0 payments, 1 balances; every balance matches its recount.\n")
    }

    @Test("--record writes a private script that --script and flows test replay")
    func recordAndReplay() async throws {
        defer { flows.removeHome() }
        let script = flows.home.appendingPathComponent("sign-up.flows")
        let recorded = try await flows.run(["run", "SignUp", "--record", script.path], input: signUpAnswers)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let text = try String(contentsOf: script, encoding: .utf8)
        #expect(text.hasSuffix("tap create-account\nexpect result signed-up\n"))
        let mode = try FileManager.default.attributesOfItem(atPath: script.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)

        let replayed = try await flows.run(["run", "SignUp", "--script", script.path], environment: ["FLOWS_HOME": flows.home.appendingPathComponent("other").path])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stderr.contains("result signed-up (completed)"))

        _ = try await flows.run(["test", script.path, "--update"])
        let tested = try await flows.run(["test", script.path])
        #expect(tested.status == 0)
        #expect(tested.stdout.hasSuffix("1 passed, 0 failed\n"))
    }

    @Test("flows test fails on a changed golden and says how many")
    func goldenFailure() async throws {
        defer { flows.removeHome() }
        let script = flows.home.appendingPathComponent("quit.flows")
        try Data("flow Unauthenticated\ntap quit\nexpect result quit\n".utf8).write(to: script)
        _ = try await flows.run(["test", script.path, "--update"])
        let golden = flows.home.appendingPathComponent("quit.transcript")
        let text = try String(contentsOf: golden, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "Quit (quit", with: "Quiet (quit").utf8).write(to: golden)
        let tested = try await flows.run(["test", flows.home.path])
        #expect(tested.status == 1)
        #expect(tested.stdout.contains("- "))
        #expect(tested.stdout.contains("Quiet (quit"))
        #expect(tested.stdout.hasSuffix("0 passed, 1 failed\n"))
    }

    @Test("usage errors exit 2", arguments: [
        ["run", "Nope"], ["run"], ["--set", "novalue"], ["frobnicate"], ["run", "SignIn", "--colour"],
        ["run", "SignIn", "--script", "/nonexistent.flows"], ["test", "/nonexistent"],
        ["run", "SignIn", "--script", "a.flows", "--record", "b.flows"],
    ])
    func usage(arguments: [String]) async throws {
        defer { flows.removeHome() }
        let outcome = try await flows.run(arguments)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(!outcome.stderr.isEmpty)
    }

    @Test("--help on every command", arguments: [["--help"], ["list", "--help"], ["run", "--help"], ["test", "--help"], ["verify", "--help"], ["help", "run"]])
    func help(arguments: [String]) async throws {
        defer { flows.removeHome() }
        let outcome = try await flows.run(arguments)
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("USAGE: flows"))
    }

    @Test("end of input exits 1 with a message, and writes nothing")
    func endOfInput() async throws {
        defer { flows.removeHome() }
        let outcome = try await flows.run(["run", "SignUp"], input: "ada@example.com\n")
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasSuffix("flows: end of input while asking for Password\n"))
        let app = try await flows.run([])
        #expect(app.status == 1)
        #expect(app.stderr.contains("Welcome to Flows"))
    }

    @Test("hostile answers: 10,000 characters and escape sequences are refused, never crash")
    func hostileAnswers() async throws {
        defer { flows.removeHome() }
        let long = String(repeating: "a", count: 10_000)
        let outcome = try await flows.run(["run", "SignUp"], input: "\(long)\n\u{1B}[31mada@example.com\nada@example.com\ncorrect horse\n\u{1B}]0;pwned\u{7}\nAda\n")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("Error: An email address has at most 254 characters."))
        #expect(outcome.stderr.contains("Error: An email address cannot contain control characters."))
        #expect(outcome.stderr.contains("Error: A name cannot contain control characters."))
        #expect(!outcome.stderr.unicodeScalars.contains("\u{1B}"))
    }

    @Test("a store that cannot be created is reported, and nothing crashes")
    func unusableStore() async throws {
        defer { flows.removeHome() }
        let blocker = flows.home.appendingPathComponent("file")
        try Data("not a folder".utf8).write(to: blocker)
        let outcome = try await flows.run(["run", "SignUp"], input: signUpAnswers, environment: ["FLOWS_HOME": blocker.appendingPathComponent("store").path])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("The local store is unavailable"))

        // A stored session whose database cannot be opened: the app says so and offers to retry.
        try Data("token\n".utf8).write(to: flows.home.appendingPathComponent("session"))
        try FileManager.default.createDirectory(at: flows.home.appendingPathComponent("flows.sqlite"), withIntermediateDirectories: true)
        let app = try await flows.run([], input: "\n2\n")
        #expect(app.status == 1)
        #expect(app.stderr.contains("Flows cannot open your data"))
        #expect(app.stderr.contains("1) Try again"))
        #expect(app.stderr.hasSuffix("flows: The local store is unavailable: cannot open the store \(flows.home.path)/flows.sqlite: Is a directory\n"))
    }

    @Test("without FLOWS_HOME the store goes to XDG_DATA_HOME/flows")
    func xdgDataHome() async throws {
        defer { flows.removeHome() }
        let outcome = try await flows.run(["run", "SignUp"], input: signUpAnswers, environment: ["FLOWS_HOME": "", "XDG_DATA_HOME": flows.home.path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: flows.home.appendingPathComponent("flows/flows.sqlite").path))
    }

    @Test("Ctrl-C while a prompt waits exits 130")
    func interrupt() async throws {
        defer { flows.removeHome() }
        let process = Process()
        process.executableURL = FlowsProcess.executable
        process.arguments = ["run", "SignIn"]
        process.environment = flows.environment([:])
        let stdin = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let watchdog = Watchdog(pid: process.processIdentifier, seconds: FlowsProcess.limit)
        defer { watchdog.cancel() }
        let errors = Collected(stderr)
        let deadline = Date().addingTimeInterval(FlowsProcess.limit)
        while !errors.text.contains("Email: ") && process.isRunning && Date() < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(errors.text.contains("Email: "))
        kill(process.processIdentifier, SIGINT)
        try await onOwnThread { process.waitUntilExit() }
        #expect(process.terminationStatus == 130)
        try? stdin.fileHandleForWriting.close()
    }
}
