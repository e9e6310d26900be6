import ArgumentParser
import Expenses
import FlowKit
import FlowTerminal
import FlowsServices
import Foundation
import LocalStore
import Primitives

/// `flows`: runs the whole app, or with a subcommand lists or runs one flow.
struct FlowsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flows",
        abstract: "Share costs with friends and track your own spending, from a terminal.",
        discussion: """
            Without a subcommand, flows runs the whole app. Every user path is a flow that can \
            also run on its own: `flows list` names them, `flows run NAME` runs one. `flows \
            balances`, `friends`, `groups`, `expenses` and `activity` print what you have, never \
            asking (--json for programs); `flows import` and `flows export` go to and from other apps; \
            `flows rates` shows the reference rates conversions use; with a server, `flows sync` \
            brings this machine's copy of what you see there up to date.

            Screens and prompts go to standard error; with --json the result goes to standard \
            output. Answers are read from standard input, one per line. The store lives in \
            FLOWS_HOME, else XDG_DATA_HOME/flows, else ~/.local/share/flows.

            Exit status: 0 done, 1 failed, declined or cancelled, 2 usage error, 130 interrupted.
            """,
        version: FlowsCLI.version,
        subcommands: [
            ListCommand.self, RunCommand.self, TestCommand.self, VerifyCommand.self,
            BalancesCommand.self, FriendsListCommand.self, GroupsListCommand.self, ExpensesListCommand.self, ActivityCommand.self,
            ImportCommand.self, ExportCommand.self, RatesCommand.self, SyncCommand.self, WebCommand.self,
        ]
    )

    @OptionGroup var options: RunOptions

    func run() async throws {
        try await Launcher.launch(flowNamed: "App", options: options.launch)
    }
}

/// `flows verify`: recounts every balance of the store from its expenses and payments.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Recount every balance from the expenses and payments, and compare it with the balances kept.",
        discussion: """
            Reads the whole store (FLOWS_HOME, else XDG_DATA_HOME/flows, else ~/.local/share/flows). \
            Prints each balance that differs from its recount and each expense that does not add up, \
            then one summary line. Exit status: 0 when everything matches, 1 when anything differs \
            or the store cannot be read.
            """,
    )

    func run() async throws {
        // Only the ledger's store is needed: no accounts, no renderer.
        let verifier = LocalServices.open(try Launcher.storeLocation()).verifier
        let check: LedgerCheck
        do {
            check = try await verifier.verify()
        } catch {
            Launcher.complain(error.message)
            throw ExitCode.failure
        }
        for line in Self.report(check) { StandardOutput.line(line) }
        if !check.isSound { throw ExitCode.failure }
    }

    /// What a recount found, a line each: every expense that does not add up, every balance that
    /// differs from its recount, then the summary.
    static func report(_ check: LedgerCheck) -> [String] {
        check.brokenExpenses.map { "expense \($0)" } + check.differences.map(describe) + [check.summary]
    }

    /// `EUR a-ann <- b-bob: kept 10.00, recounted 12.00` (what the second owes the first).
    static func describe(_ difference: LedgerCheck.Difference) -> String {
        func amount(_ units: Int128) -> String {
            guard let currency = Currency(code: difference.currency), let small = Int64(exactly: units) else { return "\(units) minor units" }
            return Money(minorUnits: small, currency: currency).amountText
        }
        return "\(difference.currency) \(difference.high) owes \(difference.low): kept \(amount(Int128(difference.kept))), recounted \(amount(difference.recounted))"
    }
}

/// `flows list`: every flow that can be launched, with a line about each.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List every flow that `flows run` can launch.",
        discussion: "With flows' --json (`flows list --json`), prints a JSON array of {name, summary, needsUser, fields} instead."
    )

    // `--json` is the root command's option (it comes before or after `list`).
    @ParentCommand var root: FlowsCommand

    struct Listed: Encodable {
        var name: String
        var summary: String
        var needsUser: Bool
        var fields: [String]
    }

    func run() {
        if root.options.json {
            let listed = FlowCatalog.entries.map { Listed(name: $0.name, summary: $0.summary, needsUser: $0.needsUser, fields: $0.fields.map(\.rawValue)) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            StandardOutput.line((try? encoder.encode(listed)).map { String(decoding: $0, as: UTF8.self) } ?? "[]")
            return
        }
        let width = FlowCatalog.entries.map(\.name.count).max() ?? 0
        for entry in FlowCatalog.entries {
            let padding = String(repeating: " ", count: width - entry.name.count + 2)
            StandardOutput.line(entry.name + padding + entry.summary)
        }
    }
}

/// `flows run NAME`: launches one flow.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run one flow by name (see `flows list`).",
        discussion: """
            A flow that needs a signed-in user uses the stored session, or runs SignIn first.
            Example: printf 'ada@example.com\\nsecret-password\\n' | flows run SignIn --json
            """
    )

    @Argument(help: "The flow to run, as `flows list` names it (case does not matter).")
    var name: String

    @OptionGroup var options: RunOptions

    @Option(help: ArgumentHelp("Drive the flow from a script instead of prompts (see docs/scripts.md); its transcript goes to standard error.", valueName: "FILE"))
    var script: String?

    func validate() throws {
        guard FlowCatalog.entry(named: name) != nil else {
            throw ValidationError(
                "unknown flow '\(name)'; known flows: \(FlowCatalog.entries.map(\.name).joined(separator: ", "))"
            )
        }
    }

    func run() async throws {
        if let script {
            guard options.record == nil else { throw UsageError("--script and --record do not go together") }
            try await Launcher.launch(flowNamed: name, script: script, options: options.launch)
        } else {
            try await Launcher.launch(flowNamed: name, options: options.launch)
        }
    }
}

/// The options every launch takes.
struct RunOptions: ParsableArguments {
    @Flag(help: "Print the flow's result as JSON on standard output.")
    var json = false

    @Flag(name: .customLong("no-input"), help: "Never prompt: a missing answer is an error that names the --set to pass.")
    var noInput = false

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp("Answer the field ID in advance, instead of at its prompt (repeatable).", valueName: "ID=VALUE")
    )
    var answers: [String] = []

    @Flag(help: "Use the plain line-by-line renderer even on a terminal (screen readers, logs).")
    var plain = false

    @Option(help: ArgumentHelp("When to use colour on a terminal: auto (not with NO_COLOR or TERM=dumb), always, never.", valueName: "WHEN"))
    var color: TerminalStyle.Choice = .auto

    @Option(help: ArgumentHelp(
        "The palette on a terminal for this run: dark, light, high-contrast, no-colour (otherwise the signed-in user's stored theme, dark before anyone signs in).",
        valueName: "THEME"
    ))
    var theme: TerminalStyle.Theme?

    @Option(help: ArgumentHelp("Write what happens as a script to FILE (mode 0600), to replay with --script or flows test.", valueName: "FILE"))
    var record: String?

    @Option(help: ArgumentHelp(
        "Use the flows-server at URL (http or https) instead of the store on this machine (env FLOWS_SERVER; see docs/server.md).",
        valueName: "URL"
    ))
    var server: String?

    /// The options as the launcher takes them.
    var launch: LaunchOptions {
        LaunchOptions(json: json, noInput: noInput, answers: answers, plain: plain, color: color, theme: theme, record: record, server: server)
    }

    func validate() throws {
        try launch.validate()
    }
}

// FlowTerminal knows nothing of ArgumentParser, so only the app can say how its options are parsed.
extension TerminalStyle.Choice: @retroactive ExpressibleByArgument {}
extension TerminalStyle.Theme: @retroactive ExpressibleByArgument {}
