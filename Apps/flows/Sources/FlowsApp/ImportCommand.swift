import ArgumentParser
import Foundation
import Expenses
import Interchange
import InterchangeFormats
import InterchangeLive
import Primitives

/// `flows import FORMAT FILE`: another app's export into the signed-in user's ledger, checked
/// against the file's own totals first, each entry once however often it is imported.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import expenses and payments from another app's export.",
        discussion: """
            FORMAT is splitwise (Splitwise's "Export as spreadsheet", CSV), spliit (Spliit's JSON \
            export of a group, filed under a group of its name), ihatemoney (IHateMoney's bills or \
            settlements, JSON or CSV) or json (Flows' own export, whose people are matched by \
            their email first). The file must add up \
            (every row, and each member's total balance) or nothing is written; the rows you are \
            in are added, each once however often the file is imported, in one transaction. \
            People are matched to your friends and contacts by name; --map says who the others \
            are; on a terminal, the import asks about anyone --map leaves out, and shows its \
            progress. How each row is read: docs/import-export.md.

            Exit status: 0 imported (or checked, with --dry-run), 1 refused (nothing written) or \
            nobody signed in, 2 usage error.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case splitwise
        case spliit
        case ihatemoney
        /// Flows' own export.
        case json
    }

    @Argument(help: ArgumentHelp("The file's format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "FORMAT"))
    var format: Format

    @Argument(help: ArgumentHelp("The file to import.", valueName: "FILE"))
    var file: String

    @Option(help: ArgumentHelp("File everything under your group NAME (made if you have none of that name).", valueName: "NAME"))
    var group: String?

    @Option(help: ArgumentHelp("Your name in the file (by default, your display name).", valueName: "NAME"))
    var me: String?

    @Option(help: ArgumentHelp(
        "Who a person of the file is: NAME=EMAIL (your friend or contact with that email) or NAME=contact (your contact of that name, made if needed). Repeat for each.",
        valueName: "NAME=EMAIL|contact"
    ))
    var map: [String] = []

    @Option(help: ArgumentHelp("The currency of IHateMoney bills that name none (a project without one).", valueName: "CODE"))
    var currency: String?

    @Flag(help: "Check the file and show what would be added, writing nothing.")
    var dryRun = false

    @OptionGroup var options: ReadOptions

    /// The `--map`s, by name.
    var matches: [String: PersonMatch] {
        get throws {
            var matches: [String: PersonMatch] = [:]
            for pair in map {
                guard let equals = pair.lastIndex(of: "=") else { throw ValidationError("--map \(pair): write NAME=EMAIL or NAME=contact.") }
                let name = pair[..<equals].trimmingWhitespace()
                let value = pair[pair.index(after: equals)...].trimmingWhitespace()
                guard !name.isEmpty, !value.isEmpty else { throw ValidationError("--map \(pair): write NAME=EMAIL or NAME=contact.") }
                guard matches[name] == nil else { throw ValidationError("--map names \(name) twice.") }
                matches[name] = value.lowercased() == "contact" ? .contact : .email(value)
            }
            return matches
        }
    }

    func validate() throws {
        _ = try matches
        if let currency, Currency(code: currency.uppercased()) == nil { throw ValidationError("--currency \(currency): not a currency Flows knows.") }
        if currency != nil, format != .ihatemoney { throw ValidationError("--currency is for IHateMoney files, whose bills may name none.") }
        if options.server != nil { throw ValidationError("flows import writes into this machine's store; the server takes no imports yet.") }
    }

    func run() async throws {
        let reader = try await Reader.signedIn(options)
        let container = reader.container
        let sheet: Sheet
        do throws(SheetProblems) {
            sheet = switch format {
            case .splitwise: try SplitwiseCSV.read(contentsOf: file)
            case .spliit: try SpliitJSON.read(contentsOf: file)
            case .ihatemoney: try IHateMoneyExport.read(contentsOf: file, currency: currency.flatMap { Currency(code: $0.uppercased()) }, today: container.today)
            case .json: try FlowsJSON.read(contentsOf: file)
            }
        } catch {
            throw Reader.failed(InterchangeError.sheet(error).message)
        }
        let service = LiveInterchangeService(expenses: container.expenses, friends: container.friends, groups: container.groups)
        var importOptions = ImportOptions(me: me, matches: try matches, group: group)
        // On a terminal, who is who is asked rather than refused.
        let asking = TerminalQuestions()
        var asked: Set<String> = []
        let plan: ImportPlan
        while true {
            let bar = dryRun ? nil : ProgressBar(label: "Importing")
            var progress: ImportProgress?
            if let bar { progress = { written, total in bar.show(written, of: total) } }
            do throws(InterchangeError) {
                if dryRun {
                    plan = try await service.plan(sheet, options: importOptions, by: reader.user.id)
                } else {
                    plan = try await service.run(sheet, options: importOptions, by: reader.user.id, progress: progress)
                }
                bar?.finish()
                break
            } catch {
                bar?.finish()
                guard let asking else { throw Reader.failed(error.message) }
                switch error {
                case .unmatched(let names):
                    for name in names {
                        importOptions.matches[name] = try asking.whoIs(name)
                        asked.insert(name)
                    }
                case .whoAreYou(nil, let people):
                    importOptions.me = try asking.whichIsYou(among: people)
                case .badMatch(let reason) where !asked.isEmpty:
                    // An email typed that is no one's: those typed are asked again.
                    asking.tell(reason)
                    for name in asked where importOptions.matches[name] != .contact { importOptions.matches[name] = nil }
                    asked = []
                default:
                    throw Reader.failed(error.message)
                }
            }
        }
        if options.json {
            Reader.printJSON(Output(plan, dryRun: dryRun))
        } else {
            for line in Self.lines(plan, dryRun: dryRun) { StandardOutput.line(line) }
        }
    }

    /// What an import did (or would do), in words.
    static func lines(_ plan: ImportPlan, dryRun: Bool) -> [String] {
        let payments = plan.adding.filter(\.isPayment).count
        let expenses = plan.adding.count - payments
        let counted = { (count: Int, one: String, many: String) in count == 1 ? "1 \(one)" : "\(count) \(many)" }
        let what = "\(counted(expenses, "expense", "expenses")) and \(counted(payments, "payment", "payments"))"
        var lines = [dryRun ? "Would add \(what); nothing was written (--dry-run)." : "Added \(what)."]
        if plan.alreadyImported > 0 { lines.append("Imported before, so passed over: \(counted(plan.alreadyImported, "entry", "entries")).") }
        var people = ["you: " + plan.people.filter { $0.match == .you }.map(\.name).joined(separator: ", ")]
        let known = plan.people.compactMap { person -> String? in
            guard case .friend(_, let name) = person.match else { return nil }
            return name == person.name ? name : "\(person.name) (your \(name))"
        }
        if !known.isEmpty { people.append("your friends and contacts: " + known.joined(separator: ", ")) }
        let new = plan.people.filter { $0.match == .newContact }.map(\.name)
        if !new.isEmpty { people.append((dryRun ? "to be made contacts: " : "made contacts: ") + new.joined(separator: ", ")) }
        lines.append("People: " + people.joined(separator: "; ") + ".")
        if !plan.groups.isEmpty {
            let made = dryRun ? "to be made" : "made"
            lines.append((plan.groups.count == 1 ? "Group: " : "Groups: ") + plan.groups.map { $0.isNew ? "\($0.name), \(made)" : $0.name }.joined(separator: "; ") + ".")
        }
        if !plan.leftOut.isEmpty {
            lines.append("Left out:")
            lines += plan.leftOut.map { "  \($0)" }
        }
        return lines
    }

    /// An import as `--json` prints it (docs/cli.md).
    struct Output: Encodable {
        struct Person: Encodable {
            let name: String
            /// `you`, `friend`, `new-contact` or `not-needed`.
            let match: String
            let id: String?
        }
        struct Note: Encodable {
            let row: Int?
            let reason: String
        }
        let format: String
        let dryRun: Bool
        let expenses: Int
        let payments: Int
        let alreadyImported: Int
        let people: [Person]
        struct Group: Encodable {
            let name: String
            let made: Bool
        }
        let groups: [Group]
        let leftOut: [Note]

        init(_ plan: ImportPlan, dryRun: Bool) {
            format = plan.format
            self.dryRun = dryRun
            payments = plan.adding.filter(\.isPayment).count
            expenses = plan.adding.count - payments
            alreadyImported = plan.alreadyImported
            people = plan.people.map { person in
                switch person.match {
                case .you: Person(name: person.name, match: "you", id: nil)
                case .friend(let id, _): Person(name: person.name, match: "friend", id: id.rawValue)
                case .newContact: Person(name: person.name, match: "new-contact", id: nil)
                case .notNeeded: Person(name: person.name, match: "not-needed", id: nil)
                }
            }
            groups = plan.groups.map { Group(name: $0.name, made: $0.isNew) }
            leftOut = plan.leftOut.map { Note(row: $0.row, reason: $0.message) }
        }
    }
}
