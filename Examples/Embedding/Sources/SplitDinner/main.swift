import Accounts
import Expenses
import Foundation
import FlowsServices
import Friends
import LocalStore
import Primitives

// Usage: SplitDinner FOLDER. Opens (or creates) a Flows store in FOLDER, makes sure Ada and Bob
// have accounts and are friends, records that Ada paid 30.00 EUR for a dinner for both, and
// prints what Bob owes.
let folder = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "split-dinner-store", isDirectory: true)
let services = LocalServices.open(StoreLocation(directory: folder))

func account(_ email: String, _ name: String) async throws -> User {
    do {
        return try await services.accounts.signUp(email: email, displayName: name, password: "correct horse battery")
    } catch .emailTaken {
        return try await services.accounts.signIn(email: email, password: "correct horse battery")
    }
}

let ada = try await account("ada@example.com", "Ada")
let bob = try await account("bob@example.com", "Bob")
// An expense names only its writer's friends and contacts (a second run finds them friends).
if try await services.friends.friend(bob.id, of: ada.id) == nil {
    // This program acts for both: Ada asks, and Bob accepts.
    try await services.friends.befriend(.email(bob.email.value), by: ada.id)
}
let total = Money(minorUnits: 3000, currency: .eur)
let dinner = try await services.expenses.add(
    ExpenseDraft(
        description: "Dinner", amount: total, day: try Day("2026-11-22"), category: .food,
        payers: [Payer(user: ada.id, amount: total)], participants: [ada.id, bob.id], rule: .equal
    ),
    by: ada.id
)
print("Recorded \(dinner.description), \(dinner.amount).")
for balance in try await services.expenses.balances(of: bob.id) {
    print("Bob's balance with Ada: \(balance.amount)")
}
