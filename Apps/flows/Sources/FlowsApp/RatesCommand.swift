import ArgumentParser
import Foundation
import Primitives
import Rates
import RatesECB

/// `flows rates`: the ECB's euro reference rates this machine has, and updating them from a
/// newer ECB file. Works offline; needs nobody signed in.
struct RatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rates",
        abstract: "Show the euro reference rates (ECB) that conversions use, or update them from a newer ECB file.",
        discussion: """
            Flows ships the European Central Bank's daily euro reference rates. A day without \
            rates (a weekend, a holiday, or after the table's last day) takes the latest before \
            it, and says which day that is. A rate between two other currencies goes through \
            the euro, as the ECB defines it. docs/currencies.md says more.
            """,
        subcommands: [RatesShowCommand.self, RatesImportCommand.self],
        defaultSubcommand: RatesShowCommand.self
    )

    /// The rates kept in the store's folder (or those shipped).
    static func service() throws -> ECBRatesService {
        ECBRatesService(directory: try Launcher.storeLocation().directory)
    }
}

/// `flows rates [--on DAY] [FROM TO]`.
struct RatesShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the rate from FROM to TO, or every currency's against the euro.",
        discussion: "Exit status: 0 shown, 1 no rate on or before the day (or the table cannot be read), 2 usage error."
    )

    @Option(help: ArgumentHelp("The day (yyyy-MM-dd); by default today.", valueName: "DAY"))
    var on: String?

    @Argument(help: ArgumentHelp("The currency converted from (EUR, USD, JPY, ...).", valueName: "FROM"))
    var from: String?

    @Argument(help: ArgumentHelp("The currency converted to.", valueName: "TO"))
    var to: String?

    @Flag(help: "Print JSON on standard output, for programs (its shape: docs/cli.md).")
    var json = false

    func validate() throws {
        if let on { do throws(Day.Problem) { _ = try Day(on) } catch { throw ValidationError("--on: \(error.message)") } }
        if (from == nil) != (to == nil) { throw ValidationError("Give both currencies, FROM and TO (flows rates USD JPY), or neither.") }
        for code in [from, to].compactMap({ $0 }) where Currency(code: code.uppercased()) == nil {
            throw ValidationError("\(code) is not a currency Flows knows.")
        }
    }

    /// A quote as `--json` prints it.
    struct Output: Encodable {
        let from: String
        let to: String
        /// As published, or to six significant digits.
        let rate: String
        /// The day of the rates used, and the day asked about.
        let day: String
        let asked: String
        let source: String

        init(_ quote: RateQuote) {
            from = quote.from.code
            to = quote.to.code
            rate = quote.rateText
            day = quote.day.description
            asked = quote.asked.description
            source = quote.source
        }
    }

    func run() async throws {
        let day = try on.map { text throws in try Day(text) } ?? Day.today(at: Date(), in: .current)
        let service = try RatesCommand.service()
        let table: RateTable
        do throws(RatesError) { table = try await service.table() } catch { throw Reader.failed(error.message) }
        let pairs: [(Currency, Currency)]
        if let from, let to, let source = Currency(code: from.uppercased()), let target = Currency(code: to.uppercased()) {
            pairs = [(source, target)]
        } else {
            pairs = table.currencies.dropFirst().map { (.eur, $0) }
        }
        let quotes = pairs.compactMap { table.quote(from: $0.0, to: $0.1, on: day) }
        guard !quotes.isEmpty else {
            let (source, target) = pairs.first ?? (.eur, .usd)
            throw Reader.failed(RatesError.noRate(from: source, to: target, on: day).message)
        }
        if json {
            if from != nil, let quote = quotes.first {
                Reader.printJSON(Output(quote))
            } else {
                Reader.printJSON(["rates": quotes.map(Output.init)])
            }
            return
        }
        for quote in quotes {
            let which = quote.day == day ? "" : "; the latest before \(day)"
            StandardOutput.line("1 \(quote.from.code) = \(quote.rateText) \(quote.to.code)  (\(quote.source) \(quote.day)\(which))")
        }
    }
}

/// `flows rates import FILE`.
struct RatesImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the days of a newer ECB rates file (eurofxref-hist.csv or the day's eurofxref.csv).",
        discussion: """
            Where the file and the table both have a day, the file's rates win. A file that cannot \
            be read whole is refused, naming its lines, and the table stays as it was.

            Exit status: 0 updated, 1 refused or not kept, 2 usage error.
            """
    )

    @Argument(help: ArgumentHelp("The ECB file.", valueName: "FILE"))
    var file: String

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: file) else { throw Reader.failed("\(file) cannot be read.") }
        let service = try RatesCommand.service()
        do throws(RatesError) {
            let before = try await service.table()
            let after = try await service.update(fromECB: String(decoding: data, as: UTF8.self))
            let added = after.days.count - before.days.count
            let span = "\(after.first.map(\.description) ?? "?") to \(after.last.map(\.description) ?? "?")"
            StandardOutput.line("The rates now run from \(span) (\(added == 1 ? "1 day" : "\(added) days") added).")
        } catch {
            throw Reader.failed(error.message)
        }
    }
}
