import Accounts
import AccountsLive
import Expenses
import FlowsServices
import Foundation
import Friends
import LocalStore
import Primitives

// flows-writer STORE_FOLDER NAME [SECONDS]
//
// Signs a new account up on the store in STORE_FOLDER, adds a contact, then adds, edits,
// deletes and settles expenses with the contact, round after round, until SECONDS have passed
// (or for ever, until killed). Each write is reported on standard output only once it has
// returned, one line each:
//
//   user ID
//   added EXPENSE_ID UNITS
//   edited EXPENSE_ID UNITS
//   deleted EXPENSE_ID
//   settled SETTLEMENT_ID UNITS
//
// A write that fails is reported on standard error and ends the process with status 1.

/// A line on standard output, written at once (no buffer a kill would lose).
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("flows-writer: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: flows-writer STORE_FOLDER NAME [SECONDS]") }
let seconds = arguments.count > 3 ? Double(arguments[3]) : nil
let location: StoreLocation
do {
    location = try StoreLocation.resolve(environment: ["FLOWS_HOME": arguments[1]])
} catch {
    fail("\(error)")
}
// bcrypt at its lowest cost: a writer's sign-up is set-up, not what the tests are about, and
// at cost 12 it is most of a debug writer's life.
let services = LocalServices.open(location, hasher: PasswordHasher(cost: 4))
let name = arguments[2]
let email = "\(name)-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))@example.com"

do {
    let user = try await services.accounts.signUp(email: email, displayName: "Writer \(name)", password: "correct horse")
    report("user \(user.id.rawValue)")
    let partner = try await services.friends.addContact(name: "Partner", email: nil, by: user.id)
    let started = Date()
    let day = try Day("2026-11-20")
    var round = 0
    while seconds.map({ Date().timeIntervalSince(started) < $0 }) ?? true {
        round += 1
        let amount = Money(minorUnits: Int64(100 + round % 900), currency: .eur)
        let draft = ExpenseDraft(
            description: "Round \(round)", amount: amount, day: day, category: .food,
            payers: [Payer(user: user.id, amount: amount)], participants: [user.id, partner.id], rule: .equal
        )
        let added = try await services.expenses.add(draft, by: user.id)
        report("added \(added.id.rawValue) \(amount.minorUnits)")
        let more = Money(minorUnits: amount.minorUnits + 1, currency: .eur)
        var edited = draft
        edited.amount = more
        edited.payers = [Payer(user: user.id, amount: more)]
        let changed = try await services.expenses.edit(added, to: edited, by: user.id)
        report("edited \(added.id.rawValue) \(more.minorUnits)")
        if round % 3 == 0 {
            try await services.expenses.delete(changed, by: user.id)
            report("deleted \(added.id.rawValue)")
        }
        if round % 2 == 0 {
            let payment = Money(minorUnits: 50, currency: .eur)
            let settlement = try await services.expenses.settle(from: partner.id, to: user.id, amount: payment, day: day, by: user.id)
            report("settled \(settlement.id.rawValue) \(payment.minorUnits)")
        }
    }
} catch {
    fail("\(error)")
}
