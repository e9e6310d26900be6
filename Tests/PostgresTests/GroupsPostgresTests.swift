import Accounts
import Expenses
import Groups
import Primitives
import Testing

@Suite("Groups on PostgreSQL", TestDatabase.required)
struct GroupsPostgresTests {
    @Test("a group's members share there, settle there, leave once settled, and the ledger recounts, within the group too")
    func groupLedger() async throws {
        try await PostgresWorld.run { world in
            let (ada, bob, cy) = try await FriendsPostgresTests.people(world)
            let (groups, expenses) = (world.services.groups, world.services.expenses)
            _ = try await world.services.friends.befriend(.email("bob@example.com"), by: ada.id)
            _ = try await world.services.friends.befriend(.email("cy@example.com"), by: ada.id)
            let trip = try await groups.create(GroupDraft(name: "Kyoto trip", kind: .trip, currency: .jpy, members: [bob.id, cy.id]), by: ada.id)
            #expect(try await groups.groups(of: cy.id, archived: false).map(\.members) == [[ada.id, bob.id, cy.id]])
            // Bob and Cy are not friends: within the trip they share, outside it they may not.
            var inTrip = try draft(eur(3000), paidBy: [(bob.id, 3000)], among: [bob.id, cy.id])
            inTrip.group = trip.id
            let dinner = try await expenses.add(inTrip, by: bob.id)
            await #expect(throws: ExpensesError.unknownPeople([cy.id])) {
                try await expenses.add(try draft(eur(3000), paidBy: [(bob.id, 3000)], among: [bob.id, cy.id]), by: bob.id)
            }
            #expect(try await expenses.groupBalances(of: bob.id).map(\.amount) == [eur(1500)])
            #expect(try await expenses.debts(in: trip.id, for: ada.id) == [Debt(debtor: cy.id, creditor: bob.id, amount: eur(1500))])
            #expect(try await expenses.expenses(in: trip.id, for: ada.id, page: PageRequest()).map(\.id) == [dinner.id])
            #expect(try await expenses.totals(in: trip.id, for: ada.id).byMember.map(\.amount) == [eur(1500), eur(1500)])
            #expect(try await expenses.totals(in: trip.id, for: ada.id).byCategory.map(\.key) == ["food"])
            await #expect(throws: GroupsError.memberNotSettled(cy.id, balances: [eur(-1500)])) { try await groups.leave(trip.id, by: cy.id) }
            let payment = try await expenses.settle(from: cy.id, to: bob.id, amount: eur(1500), day: try Day("2026-11-23"), in: trip.id, by: cy.id)
            #expect(try await expenses.settlements(in: trip.id, for: bob.id, page: PageRequest()).map(\.id) == [payment.id])
            #expect(try await expenses.balances(of: bob.id).isEmpty)
            try await groups.leave(trip.id, by: cy.id)
            #expect(try await groups.group(trip.id, for: cy.id) == nil)
            await #expect(throws: ExpensesError.notInGroup(trip.id)) { try await expenses.debts(in: trip.id, for: cy.id) }
            #expect(try await groups.setArchived(true, trip.id, by: bob.id).archived)
            #expect(try await world.services.verifier.verify().isSound)
        }
    }

    @Test("expenses in a group added at once, gathered into one statement, move the group's balances as if one by one")
    func gatheredAdditions() async throws {
        try await PostgresWorld.run { world in
            let (ada, bob, cy) = try await FriendsPostgresTests.people(world)
            _ = try await world.services.friends.befriend(.email("bob@example.com"), by: ada.id)
            _ = try await world.services.friends.befriend(.email("cy@example.com"), by: ada.id)
            let trip = try await world.services.groups.create(GroupDraft(name: "Flat", currency: .eur, members: [bob.id, cy.id]), by: ada.id)
            let expenses = world.services.expenses
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                for index in 0..<40 {
                    tasks.addTask {
                        var expense = try draft(eur(300), paidBy: [(ada.id, 300)], among: [ada.id, bob.id, cy.id])
                        // Every other one outside the group.
                        expense.group = index.isMultiple(of: 2) ? trip.id : nil
                        _ = try await expenses.add(expense, by: ada.id)
                    }
                }
                try await tasks.waitForAll()
            }
            let within = try await expenses.groupBalances(of: ada.id).filter { $0.group == trip.id }
            #expect(within.map(\.amount) == [eur(2000), eur(2000)])
            #expect(try await expenses.balances(of: ada.id).map(\.amount) == [eur(4000), eur(4000)])
            let check = try await world.services.verifier.verify()
            #expect(check.isSound && check.groupBalances == 2)
        }
    }
}
