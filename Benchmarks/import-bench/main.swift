import BenchmarkSupport
import FlowsApp
import Foundation
import Interchange
import InterchangeFormats
import InterchangeLive
import LocalStore
import Primitives

// Importing a large Splitwise export (Scripts/bench): ROWS rows (50,000 unless told) among six
// members, a third of them with nets below a cent and a tenth payments, written to a file, then
// read, planned (a dry run) and imported into the app's store, on disk in a temporary folder,
// in one transaction.
// Prints each step's time and the process's peak memory; asserts nothing.

let rows = Int(ProcessInfo.processInfo.environment["ROWS"] ?? "") ?? 50_000
let people = ["Ada Lovelace", "Bob Stone", "Cy Young", "Dee Dee", "Eve Adams", "Fay Wray"]

/// Nanos (billionths of a unit) as a file writes them: `-3.333333333`, `12.5`.
func text(_ nanos: Int64) -> String {
    let sign = nanos < 0 ? "-" : ""
    let magnitude = nanos.magnitude
    var fraction = String(magnitude % 1_000_000_000)
    fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
    while fraction.count > 2, fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(sign)\(magnitude / 1_000_000_000).\(fraction)"
}

var lines = ["Date,Description,Category,Cost,Currency," + people.joined(separator: ",")]
var totals = Array(repeating: Int64(0), count: people.count)
let first = try Day("2020-01-01")
for index in 0..<rows {
    let day = first.adding(days: index / 30) ?? first
    var nets = Array(repeating: Int64(0), count: people.count)
    let cents = Int64(1_000 + index * 37 % 9_000)
    let cost = cents * 10_000_000
    let participants = [0, 1 + index % 5, 1 + (index + 2) % 5]
    let category: String
    if index % 10 == 9 {
        // A payment: one of them pays Ada back.
        category = "Payment"
        nets[participants[1]] = cost
        nets[0] = -cost
    } else {
        category = ["Dining out", "Groceries", "Taxi", "Rent", "General"][index % 5]
        let payer = participants[index % 3]
        // Thirds of a cent below the cent, or whole cents, as Splitwise's sheet gives them.
        let share = index % 3 == 0 ? cost / 3 : (cost / 3) / 10_000_000 * 10_000_000
        for person in participants { nets[person] -= share }
        nets[payer] += cost
        nets[payer] -= cost - 3 * share
    }
    for person in people.indices { totals[person] += nets[person] }
    lines.append(["\(day)", "Row \(index)", category, text(cost), "EUR"].joined(separator: ",") + "," + nets.map(text).joined(separator: ","))
}
lines.append("")
lines.append("2030-01-01,Total balance, , ,EUR," + totals.map(text).joined(separator: ","))
let file = FileManager.default.temporaryDirectory.appendingPathComponent("flows-import-bench-\(ProcessInfo.processInfo.processIdentifier).csv")
try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
defer { try? FileManager.default.removeItem(at: file) }
let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
print("File: \(rows) rows among \(people.count) members, \(size / 1_000) kB")

let clock = ContinuousClock()
var started = clock.now
let sheet = try SplitwiseCSV.read(contentsOf: file.path)
let reading = clock.now - started

let home = FileManager.default.temporaryDirectory.appendingPathComponent("flows-import-bench-\(ProcessInfo.processInfo.processIdentifier)")
defer { try? FileManager.default.removeItem(at: home) }
let container = AppContainer.live(location: StoreLocation(directory: home))
let ada = try await container.accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse")
let service = LiveInterchangeService(expenses: container.expenses, friends: container.friends, groups: container.groups)
let options = ImportOptions(matches: Dictionary(uniqueKeysWithValues: people.dropFirst().map { ($0, PersonMatch.contact) }))
started = clock.now
let plan = try await service.plan(sheet, options: options, by: ada.id)
let planning = clock.now - started
started = clock.now
let ran = try await service.run(sheet, options: options, by: ada.id)
let importing = clock.now - started
started = clock.now
let again = try await service.run(sheet, options: options, by: ada.id)
let repeating = clock.now - started

var usage = rusage()
getrusage(RUSAGE_SELF.rawValue, &usage)
let format = { (duration: Duration) in String(format: "%.2f s", milliseconds(duration) / 1000) }
print("Read and checked: \(sheet.entries.count) entries in \(format(reading))")
print("Planned (dry run): \(plan.adding.count) to add in \(format(planning))")
print("Imported: \(ran.adding.count) entries in one transaction in \(format(importing))")
print("Reading and importing, what `flows import` does: \(format(reading + importing)); with the dry run too: \(format(reading + planning + importing))  (target: under 20 s)")
print("Imported again: \(again.adding.count) added, \(again.alreadyImported) passed over, in \(format(repeating))")
print("Peak memory: \(usage.ru_maxrss / 1024) MB  (target: under 200 MB)")
if let check = try await container.verifier?.verify() {
    print(check.isSound ? "Ledger verified: every balance matches its recount." : "LEDGER MISMATCH: \(check.summary)")
}
