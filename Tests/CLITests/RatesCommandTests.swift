import Foundation
import Testing

/// `flows rates` on a fresh store: the shipped ECB rates, a newer file imported, a malformed one
/// refused. Nobody needs to be signed in.
@Suite("flows rates")
struct RatesCommandTests {
    @Test("a rate on a day, the latest before a day without one, JSON, every currency; an import adds days and a malformed file changes nothing")
    func rates() async throws {
        let flows = try FlowsProcess()
        defer { flows.removeHome() }
        let run = { (arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) in
            let outcome = try await flows.run(arguments)
            return (outcome.status, outcome.stdout, outcome.stderr)
        }
        #expect(try await run(["rates", "--on", "2026-10-30", "EUR", "JPY"]).stdout == "1 EUR = 175.68 JPY  (ECB 2026-10-30)\n")
        #expect(try await run(["rates", "--on", "2026-11-01", "usd", "jpy"]).stdout == "1 USD = 157.25 JPY  (ECB 2026-10-30; the latest before 2026-11-01)\n")
        let json = try await run(["rates", "--on", "2026-11-01", "USD", "JPY", "--json"])
        #expect(json.stdout == #"{"asked":"2026-11-01","day":"2026-10-30","from":"USD","rate":"157.25","source":"ECB","to":"JPY"}"# + "\n")
        let all = try await run(["rates", "--on", "2026-10-30"])
        #expect(all.status == 0)
        #expect(all.stdout.split(separator: "\n").count == 29)
        #expect(all.stdout.contains("1 EUR = 1.1172 USD  (ECB 2026-10-30)\n"))

        let none = try await run(["rates", "--on", "1990-01-01", "USD", "JPY"])
        #expect(none.status == 1 && none.stderr == "flows: There is no rate from USD to JPY on or before 1990-01-01.\n")
        let one = try await run(["rates", "USD"])
        #expect(one.status == 2 && one.stderr.contains("Give both currencies"), "\(one.stderr)")
        let unknown = try await run(["rates", "USD", "XYZ"])
        #expect(unknown.status == 2 && unknown.stderr.contains("XYZ is not a currency Flows knows."), "\(unknown.stderr)")

        let daily = flows.home.appendingPathComponent("eurofxref.csv")
        try "Date, USD, JPY, \n27 November 2026, 1.05, 170.5, \n".write(to: daily, atomically: true, encoding: .utf8)
        #expect(try await run(["rates", "import", daily.path]).stdout == "The rates now run from 1999-01-04 to 2026-11-27 (1 day added).\n")
        #expect(try await run(["rates", "--on", "2026-11-28", "USD", "JPY"]).stdout == "1 USD = 162.381 JPY  (ECB 2026-11-27; the latest before 2026-11-28)\n")
        let bad = flows.home.appendingPathComponent("bad.csv")
        try "Date,USD\n2026-11-30,1.1\nsoon,1\n".write(to: bad, atomically: true, encoding: .utf8)
        let refused = try await run(["rates", "import", bad.path])
        #expect(refused.status == 1)
        #expect(refused.stderr == "flows: The rates file cannot be read; the table is unchanged:\n  Line 3: \"soon\" is not a day (2026-10-30 or 30 October 2026).\n")
        #expect(try await run(["rates", "--on", "2026-12-01", "USD", "JPY"]).stdout == "1 USD = 162.381 JPY  (ECB 2026-11-27; the latest before 2026-12-01)\n")
    }
}
