import Expenses
import Foundation
import Interchange
import InterchangeFormats
import InterchangeLive
import Primitives
import Testing

@Suite("Importing on PostgreSQL", TestDatabase.required)
struct ImportPostgresTests {
    static let flat = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/import/splitwise-flat.csv").path

    @Test("a Splitwise export lands in one transaction with the file's balances, once however often it is imported")
    func splitwise() async throws {
        try await PostgresWorld.run { world in
            let (ada, bob, _) = try await FriendsPostgresTests.people(world)
            _ = try await world.services.friends.befriend(.email("bob@example.com"), by: ada.id)
            let service = LiveInterchangeService(expenses: world.services.expenses, friends: world.services.friends, groups: world.services.groups)
            let sheet = try SplitwiseCSV.read(contentsOf: Self.flat)
            // The fixture's Ada Lovelace and Bob Stone are the world's Ada and Bob, by email.
            let options = ImportOptions(
                me: "Ada Lovelace", matches: ["Bob Stone": .email("bob@example.com"), "王芳": .contact, "Cy Young": .contact], group: "Flat"
            )
            let ran = try await service.run(sheet, options: options, by: ada.id)
            #expect(ran.adding.count == 8)
            let balances = try await world.services.expenses.balances(of: ada.id)
            #expect(balances.filter { $0.amount.currency == .eur }.reduce(0) { $0 + $1.amount.minorUnits } == 32668)
            #expect(balances.contains(Balance(other: bob.id, amount: Money(minorUnits: -332, currency: .eur))))
            let again = try await service.run(sheet, options: options, by: ada.id)
            #expect(again.adding.isEmpty && again.alreadyImported == 8)
            #expect(try await world.services.expenses.balances(of: ada.id) == balances)
            #expect(try await world.services.verifier.verify().isSound)
        }
    }
}
