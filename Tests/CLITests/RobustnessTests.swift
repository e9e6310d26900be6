import FlowsApp
import Foundation

#if canImport(Glibc)
import Glibc
#endif
import Testing

/// The `flows` executable when things go wrong around it: a full disk, a closed pipe, a file it
/// cannot write, answers for fields that do not exist, several processes at once.
@Suite("The flows CLI when things go wrong")
struct RobustnessTests {
    let flows: FlowsProcess

    init() throws {
        flows = try FlowsProcess()
    }

    private let signUpAnswers = "ada@example.com\ncorrect horse\nAda Lovelace\n"

    @Test("a full disk on standard output is a failure with the system's reason", arguments: [["list"], ["--help"], ["--version"], ["list", "--json"]])
    func fullDisk(arguments: [String]) async throws {
        defer { flows.removeHome() }
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let outcome = try await flows.run(arguments, bytes: [], stdout: full)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("flows: cannot write to standard output: No space left on device"))
    }

    @Test("a closed pipe on standard output is a failure with a message, not a silent death by SIGPIPE")
    func closedPipe() async throws {
        defer { flows.removeHome() }
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let outcome = try await flows.run(["list"], bytes: [], stdout: pipe.fileHandleForWriting)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("cannot write to standard output: Broken pipe"))
    }

    @Test("--json prints one result object when a missing answer stops --no-input")
    func jsonOnMissingAnswer() async throws {
        defer { flows.removeHome() }
        let outcome = try await flows.run(["run", "SignIn", "--no-input", "--json"])
        #expect(outcome.status == 2)
        let result = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: String]
        #expect(result?["result"] == "failed")
        #expect(result?["error"] == "no answer for Email (email); pass --set email=VALUE")
    }

    @Test("a store failure is 'failed' with its error in --json, never 'cancelled'")
    func jsonOnStoreFailure() async throws {
        defer { flows.removeHome() }
        let blocker = flows.home.appendingPathComponent("file")
        try Data("not a folder".utf8).write(to: blocker)
        let outcome = try await flows.run(
            ["run", "SignUp", "--json"], input: signUpAnswers, environment: ["FLOWS_HOME": blocker.appendingPathComponent("store").path]
        )
        #expect(outcome.status == 1)
        let result = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: String]
        #expect(result?["result"] == "failed")
        #expect(result?["error"] == "The local store is unavailable: cannot create \(blocker.path)/store: Not a directory")
        #expect(outcome.stdout.split(separator: "\n").count == 1)
    }

    @Test("--no-input with a taken email says why it failed, as a piped run does")
    func noInputTakenEmail() async throws {
        defer { flows.removeHome() }
        _ = try await flows.run(["run", "SignUp"], input: signUpAnswers)
        let outcome = try await flows.run([
            "run", "SignUp", "--no-input", "--json",
            "--set", "email=ada@example.com", "--set", "password=correct horse", "--set", "display-name=Bob",
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("An account with this email already exists; sign in instead."))
        let result = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: String]
        #expect(result?["result"] == "failed")
        #expect(result?["error"] == "Email: An account with this email already exists; sign in instead.")
    }

    @Test("--record that cannot write its file exits non-zero before the run, naming the file and the reason")
    func recordUnwritable() async throws {
        defer { flows.removeHome() }
        let blocker = flows.home.appendingPathComponent("file")
        try Data("not a folder".utf8).write(to: blocker)
        let path = blocker.appendingPathComponent("run.flows").path
        let outcome = try await flows.run(["run", "SignUp", "--record", path], input: signUpAnswers)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("cannot write the recording: cannot create \(blocker.path): Not a directory"))
        #expect(!outcome.stderr.contains("Create an account"))  // refused before the flow ran
        #expect(!FileManager.default.fileExists(atPath: flows.home.appendingPathComponent("flows.sqlite").path))
    }

    @Test("file errors name the file and the system's reason, without framework codes", arguments: [
        ("missing.flows", "No such file or directory"), ("folder", "Is a directory"), ("binary.flows", "it is not valid UTF-8 text"),
    ])
    func scriptErrors(name: String, reason: String) async throws {
        defer { flows.removeHome() }
        try FileManager.default.createDirectory(at: flows.home.appendingPathComponent("folder"), withIntermediateDirectories: true)
        try Data([0x66, 0x6C, 0xFF, 0xFE]).write(to: flows.home.appendingPathComponent("binary.flows"))
        let path = flows.home.appendingPathComponent(name).path
        let outcome = try await flows.run(["run", "SignUp", "--script", path])
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "flows: cannot read \(path): \(reason)\n")
        #expect(!outcome.stderr.contains("Domain"))
    }

    @Test("flows --version prints the version")
    func version() async throws {
        defer { flows.removeHome() }
        let outcome = try await flows.run(["--version"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == FlowsCLI.version + "\n")
    }

    @Test("--set naming no field of the flow is refused with the fields it offers")
    func unknownSetField() async throws {
        defer { flows.removeHome() }
        let outcome = try await flows.run(["run", "SignIn", "--set", "e-mail=ada@example.com"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "flows: --set e-mail: SignIn has no such field; its fields are email, password, display-name\n")
        // A field of a flow reached on the way (sign-in before the home) is the flow's too.
        let home = try await flows.run(["run", "Authenticated", "--no-input", "--set", "email=ada@example.com"])
        #expect(!home.stderr.contains("no such field"))
        // Only a table has cells: `email.home` names nothing.
        let cell = try await flows.run(["run", "SignIn", "--set", "email.home=ada@example.com"])
        #expect(cell.status == 2)
        #expect(cell.stderr.hasPrefix("flows: --set email.home: SignIn has no such field;"))
    }

    @Test("list --json prints the catalog as JSON")
    func listJSON() async throws {
        defer { flows.removeHome() }
        let outcome = try await flows.run(["list", "--json"])
        #expect(outcome.status == 0)
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]])
        #expect(listed.compactMap { $0["name"] as? String } == FlowCatalog.entries.map(\.name))
        #expect(listed.first { $0["name"] as? String == "SignUp" }?["fields"] as? [String] == ["email", "password", "display-name"])
    }

    @Test("several processes signing up on one new store at the same moment all succeed", arguments: 0..<3)
    func concurrentFirstOpen(round: Int) async throws {
        defer { flows.removeHome() }
        let outcomes = await withTaskGroup(of: FlowsProcess.Outcome.self) { group in
            for index in 0..<4 {
                group.addTask { [flows] in
                    let answers = "user\(index)@example.com\ncorrect horse\nUser \(index)\n"
                    do {
                        return try await flows.run(["run", "SignUp"], input: answers)
                    } catch {
                        return FlowsProcess.Outcome(status: -1, stdout: "", stderr: "\(error)")
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.count == 4)
        for outcome in outcomes {
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(!outcome.stderr.contains("unavailable"))
        }
    }

    /// The CPU time (user and system) a `flows` process used, read from the kernel's account of
    /// that one child: unlike the time on the clock, other work on the machine does not change it.
    private func cpuSeconds(_ arguments: [String]) async throws -> Double {
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let executable = FlowsProcess.executable.path
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = flows.environment([:]).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        guard posix_spawn(&pid, executable, &actions, nil, argv, envp) == 0 else { throw PseudoTerminal.Failure("posix_spawn failed") }
        let watchdog = Watchdog(pid: pid, seconds: FlowsProcess.limit)
        defer { watchdog.cancel() }
        return try await onOwnThread { [pid] in
            var status: Int32 = 0
            var usage = rusage()
            guard wait4(pid, &status, 0, &usage) == pid else { throw PseudoTerminal.Failure("wait4 failed") }
            let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
            return seconds(usage.ru_utime) + seconds(usage.ru_stime)
        }
    }

    @Test("an unknown email costs what a known one does, in fresh processes: timing does not tell which emails exist")
    func signInTiming() async throws {
        defer { flows.removeHome() }
        _ = try await flows.run(["run", "SignUp"], input: signUpAnswers)
        let attempt = { (email: String) in ["run", "SignIn", "--no-input", "--set", "email=\(email)", "--set", "password=wrong password"] }
        let check = try await flows.run(attempt("nobody@example.com"))
        #expect(check.stderr.contains("wrong email or password"))
        var known: [Double] = []
        var unknown: [Double] = []
        for _ in 0..<5 {
            known.append(try await cpuSeconds(attempt("ada@example.com")))
            unknown.append(try await cpuSeconds(attempt("nobody@example.com")))
        }
        let median = { (values: [Double]) in values.sorted()[values.count / 2] }
        let ratio = median(unknown) / median(known)
        // One bcrypt check each: about 1. Hashing a decoy first made it about 2.
        #expect(ratio < 1.4, "CPU time: unknown \(median(unknown)) s, known \(median(known)) s")
        #expect(ratio > 0.7, "CPU time: unknown \(median(unknown)) s, known \(median(known)) s")
    }
}
