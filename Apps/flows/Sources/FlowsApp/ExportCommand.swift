import ArgumentParser
import Foundation
import Interchange
import InterchangeFormats
import InterchangeLive
import Primitives

/// `flows export`: everything the signed-in user is in, in a format for another app, a
/// spreadsheet or a plain-text ledger.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the expenses and payments you are in.",
        discussion: """
            Formats: json (Flows' own, complete: `flows import json` reads it back), csv (a row per \
            expense with each person's part, safe for spreadsheets), splitwise (Splitwise's \
            spreadsheet layout: `flows import splitwise` reads it back), spliit (a Spliit group's \
            JSON, in one currency: Spliit's import, or `flows import spliit`, reads it), ledger (an hledger \
            journal of your side: `hledger balance receivable` shows your balances). \
            docs/import-export.md describes each.

            Never prompts. Exit status: 0 written, 1 nobody signed in, no such group, or the file \
            or the store failed, 2 usage error.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json, csv, splitwise, spliit, ledger
    }

    @Option(help: ArgumentHelp("json, csv, splitwise, spliit or ledger.", valueName: "FORMAT"))
    var format: Format

    @Option(help: ArgumentHelp("Only what is filed under your group NAME.", valueName: "NAME"))
    var group: String?

    @Option(help: ArgumentHelp("Only what happened on or after DAY (yyyy-MM-dd).", valueName: "DAY"))
    var since: String?

    @Option(help: ArgumentHelp("Write to FILE instead of standard output.", valueName: "FILE"))
    var output: String?

    @OptionGroup var options: ReadOptions

    func validate() throws {
        if let since { do throws(Day.Problem) { _ = try Day(since) } catch { throw ValidationError("--since: \(error.message)") } }
        if options.json { throw ValidationError("--json does not apply: choose --format json.") }
    }

    func run() async throws {
        let reader = try await Reader.signedIn(options)
        let container = reader.container
        let service = LiveInterchangeService(expenses: container.expenses, friends: container.friends, groups: container.groups)
        let first = try since.map { text throws in try Day(text) }
        let sheet: Sheet
        do throws(InterchangeError) {
            sheet = try await service.export(ExportFilter(group: group, since: first), by: reader.user.id)
        } catch {
            throw Reader.failed(error.message)
        }
        let text: String
        switch format {
        case .json: text = FlowsJSON.write(sheet)
        case .csv: text = SheetCSV.write(sheet)
        case .splitwise: text = SplitwiseCSV.write(sheet)
        case .ledger: text = LedgerJournal.write(sheet, for: 0)
        case .spliit:
            do throws(SpliitJSON.WriteProblem) {
                text = try SpliitJSON.write(sheet, name: group ?? "Flows")
            } catch {
                throw Reader.failed(error.message)
            }
        }
        guard let output else { return StandardOutput.write(text) }
        do {
            try text.write(toFile: output, atomically: true, encoding: .utf8)
        } catch {
            throw Reader.failed("\(output) cannot be written: \(error.localizedDescription)")
        }
    }
}
