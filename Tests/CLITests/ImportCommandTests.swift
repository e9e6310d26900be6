import Foundation
import Testing

/// `flows import` on a store filled from the command line: what it says, what it writes, and
/// that a second import adds nothing.
@Suite("flows import")
struct ImportCommandTests {
    let flows: FlowsProcess
    static let flat = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/import/splitwise-flat.csv").path

    init() throws {
        flows = try FlowsProcess()
    }

    private func output(_ arguments: [String]) async throws -> String {
        let outcome = try await flows.run(arguments)
        #expect(outcome.status == 0, "flows \(arguments.joined(separator: " ")): \(outcome.stderr)")
        return outcome.stdout
    }

    @Test("a Splitwise export: the people it needs, a dry run that writes nothing, the import, then nothing twice")
    func splitwise() async throws {
        defer { flows.removeHome() }
        _ = try await output(["run", "SignUp", "--no-input", "--set", "email=ada@example.com", "--set", "display-name=Ada Lovelace", "--set", "password=correct horse"])
        let unmatched = try await flows.run(["import", "splitwise", Self.flat])
        #expect(unmatched.status == 1)
        #expect(unmatched.stderr == """
            flows: Not among your friends or contacts: Bob Stone, 王芳, Cy Young. For each, pass --map "NAME=EMAIL" (a friend's or contact's email) or --map "NAME=contact" (made a contact).

            """)
        let maps = ["--map", "Bob Stone=contact", "--map", "王芳=contact", "--map", "Cy Young=contact"]
        #expect(try await output(["import", "splitwise", Self.flat, "--dry-run"] + maps) == """
            Would add 6 expenses and 2 payments; nothing was written (--dry-run).
            People: you: Ada Lovelace; to be made contacts: Bob Stone, 王芳, Cy Young.
            Left out:
              Row 12: Cinema for two is between Bob Stone and 王芳, without you: left out.

            """)
        #expect(try await output(["friends"]) == "No friends yet: add someone with `flows run AddFriend`.\n")
        #expect(try await output(["import", "splitwise", Self.flat, "--group", "Flat"] + maps) == """
            Added 6 expenses and 2 payments.
            People: you: Ada Lovelace; made contacts: Bob Stone, 王芳, Cy Young.
            Group: Flat, made.
            Left out:
              Row 12: Cinema for two is between Bob Stone and 王芳, without you: left out.

            """)
        // The file's own total for Ada, 326.68 EUR, is what she is owed.
        #expect(try await output(["balances"]) == """
            In all, you are owed 326.68 EUR.
            In all, you are owed 2000 JPY.
            You owe Bob Stone 3.32 EUR.
            Bob Stone owes you 1000 JPY.
            王芳 owes you 330.00 EUR.
            王芳 owes you 1000 JPY.

            """)
        let again = try await output(["import", "splitwise", Self.flat, "--group", "Flat", "--json"] + maps)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(again.utf8)) as? [String: Any])
        #expect(json["expenses"] as? Int == 0 && json["payments"] as? Int == 0 && json["alreadyImported"] as? Int == 8)
        #expect((json["groups"] as? [[String: Any]])?.map { $0["made"] as? Bool } == [false] && json["dryRun"] as? Bool == false)
        #expect((json["people"] as? [[String: Any]])?.map { $0["match"] as? String } == ["you", "friend", "friend", "friend"])
        #expect(try await output(["verify"]).hasPrefix("Ledger verified: 6 expenses, 2 payments"))
        // What went into the group, as the read commands show it.
        #expect(try await output(["expenses", "--group", "flat", "--since", "2026-10-04"]) == """
            2026-10-05 Groceries, 60.00 EUR, paid by you 30.00 EUR, Bob Stone 30.00 EUR; not your part
            2026-10-04 Taxi, 3000 JPY, paid by you; your part 1000 JPY

            """)
        let noGroup = try await flows.run(["expenses", "--group", "Trip"])
        #expect(noGroup.status == 1 && noGroup.stderr == "flows: you have no group named Trip\n")
    }

    @Test("a file that does not add up writes nothing and names its rows; bad --map and no file are refused")
    func refusals() async throws {
        defer { flows.removeHome() }
        _ = try await output(["run", "SignUp", "--no-input", "--set", "email=ada@example.com", "--set", "display-name=Ada Lovelace", "--set", "password=correct horse"])
        let bad = flows.home.appendingPathComponent("bad.csv")
        try "Date,Description,Category,Cost,Currency,Ada Lovelace,Bob\n2026-10-01,Lunch,General,10,EUR,5,-4\n".write(to: bad, atomically: true, encoding: .utf8)
        let refused = try await flows.run(["import", "splitwise", bad.path, "--map", "Bob=contact"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "flows: The file cannot be imported; nothing was written:\n  Row 2: Its members' amounts add up to 1.00 EUR, not 0.\n")
        #expect(try await output(["friends"]) == "No friends yet: add someone with `flows run AddFriend`.\n")
        let map = try await flows.run(["import", "splitwise", bad.path, "--map", "Bob"])
        #expect(map.status == 2 && map.stderr.contains("--map Bob: write NAME=EMAIL or NAME=contact."), "\(map.stderr)")
        let missing = try await flows.run(["import", "splitwise", flows.home.appendingPathComponent("none.csv").path])
        #expect(missing.status == 1 && missing.stderr.contains("none.csv cannot be read."), "\(missing.stderr)")
        let format = try await flows.run(["import", "tricount", bad.path])
        #expect(format.status == 2, "\(format.stderr)")
    }

    /// Whether hledger is installed (Scripts/test installs it; under CI it must be).
    static let hledger: String? = ["/usr/bin/hledger", "/usr/local/bin/hledger"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(
        "the ledger export, read by hledger, gives the balances flows gives; json reads back; csv and splitwise are written",
        .enabled(if: hledger != nil || ProcessInfo.processInfo.environment["CI"] == "true", "hledger is not installed")
    )
    func export() async throws {
        defer { flows.removeHome() }
        _ = try await output(["run", "SignUp", "--no-input", "--set", "email=ada@example.com", "--set", "display-name=Ada Lovelace", "--set", "password=correct horse"])
        _ = try await output(["import", "splitwise", Self.flat, "--map", "Bob Stone=contact", "--map", "王芳=contact", "--map", "Cy Young=contact"])
        let journal = flows.home.appendingPathComponent("flat.journal")
        _ = try await output(["export", "--format", "ledger", "--output", journal.path])
        let hledger = Process()
        hledger.executableURL = URL(fileURLWithPath: try #require(Self.hledger, "hledger is not installed"))
        hledger.arguments = ["-f", journal.path, "balance", "receivable", "--flat", "-O", "csv", "--no-total"]
        let pipe = Pipe()
        hledger.standardOutput = pipe
        try hledger.run()
        let csv = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        hledger.waitUntilExit()
        #expect(hledger.terminationStatus == 0)
        // hledger's rows ("receivable:王芳","330.00 EUR, 1000 JPY") against flows' balances.
        var fromHledger: Set<String> = []
        for line in csv.split(separator: "\n").dropFirst() {
            let cells = line.split(separator: ",", maxSplits: 1).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            guard cells.count == 2, let name = cells[0].split(separator: ":").last else { continue }
            for amount in cells[1].split(separator: ",") { fromHledger.insert("\(name) \(amount.trimmingCharacters(in: .whitespaces))") }
        }
        let balances = try JSONSerialization.jsonObject(with: Data(try await output(["balances", "--json"]).utf8)) as? [String: Any]
        var fromFlows: Set<String> = []
        for line in balances?["balances"] as? [[String: Any]] ?? [] {
            let amount = line["amount"] as? [String: Any]
            let units = amount?["minorUnits"] as? Int ?? 0
            let currency = amount?["currency"] as? String ?? ""
            let text = currency == "JPY" ? "\(units)" : String(format: "%.2f", Double(units) / 100)
            fromFlows.insert("\(line["name"] as? String ?? "") \(text) \(currency)")
        }
        #expect(!fromFlows.isEmpty)
        #expect(fromHledger == fromFlows, "hledger: \(csv)")

        let json = flows.home.appendingPathComponent("flat.json")
        _ = try await output(["export", "--format", "json", "--output", json.path])
        let again = try await flows.run(["import", "json", json.path, "--dry-run"])
        #expect(again.status == 0 && again.stdout.hasPrefix("Would add 0 expenses and 0 payments"), "\(again.stdout)\(again.stderr)")
        #expect(try await output(["export", "--format", "csv"]).hasPrefix("Date,Description,Category,Cost,Currency,Paid by,Ada Lovelace,"))
        #expect(try await output(["export", "--format", "splitwise", "--since", "2026-10-05"]).split(separator: "\n").count == 4)
        let nothing = try await flows.run(["export", "--format", "json", "--group", "Trip"])
        #expect(nothing.status == 1 && nothing.stderr == "flows: You have no group named Trip.\n")
    }

    @Test("IHateMoney's bills, as JSON: a bill without a currency needs --currency; with the people mapped it imports, and a Spliit export of it in two currencies is refused")
    func ihatemoney() async throws {
        defer { flows.removeHome() }
        _ = try await output(["run", "SignUp", "--no-input", "--set", "email=ada@example.com", "--set", "display-name=Ada", "--set", "password=correct horse"])
        let bills = URL(fileURLWithPath: Self.flat).deletingLastPathComponent().appendingPathComponent("ihatemoney-bills.json").path
        let maps = ["--map", "Bob=contact", "--map", "Zoë=contact", "--map", "山田 花子=contact"]
        // Without a terminal, nobody is asked: the people left out are named.
        let unmatched = try await flows.run(["import", "ihatemoney", bills])
        #expect(unmatched.status == 1)
        #expect(unmatched.stderr.hasPrefix("flows: Not among your friends or contacts: Bob, Zoë, 山田 花子."), "\(unmatched.stderr)")
        #expect(try await output(["import", "ihatemoney", bills] + maps) == "Added 5 expenses and 1 payment.\nPeople: you: Ada; made contacts: Bob, Zoë, 山田 花子.\n")
        #expect(try await output(["balances"]).hasPrefix("In all, you owe 2.49 EUR.\nIn all, you owe 1000 JPY.\n"))
        let spliit = try await flows.run(["export", "--format", "spliit"])
        #expect(spliit.status == 1)
        #expect(spliit.stderr == "flows: A Spliit group has one currency; these expenses are in EUR, JPY. Export one group (--group) or a period (--since) in one currency.\n")
        let wrongCurrency = try await flows.run(["import", "splitwise", bills, "--currency", "EUR"])
        #expect(wrongCurrency.status == 2 && wrongCurrency.stderr.contains("--currency is for IHateMoney files"), "\(wrongCurrency.stderr)")
    }
}
