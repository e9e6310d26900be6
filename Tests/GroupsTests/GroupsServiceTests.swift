import Accounts
import Expenses
import FlowsServices
import Friends
import Foundation
import GRDB
import Groups
import Primitives
import Testing

/// The app's services on a private in-memory store: Ada is friends with Bob and with Cy, who
/// are not friends with each other; Eve is nobody's friend.
private struct World {
    let services = LocalServices.inMemory()
    var groups: any GroupsService { services.groups }
    var expenses: any ExpensesService { services.expenses }

    let ada: UserID
    let bob: UserID
    let cy: UserID
    let eve: UserID

    init() async throws {
        let services = self.services
        func account(_ name: String) async throws -> User {
            let user = try await services.accounts.signUp(email: "\(name.lowercased())@example.com", displayName: name, password: "correct horse")
            try await services.accounts.signOut()
            return user
        }
        let ada = try await account("Ada")
        let bob = try await account("Bob")
        let cy = try await account("Cy")
        let eve = try await account("Eve")
        _ = try await services.friends.befriend(.email("bob@example.com"), by: ada.id)
        _ = try await services.friends.befriend(.email("cy@example.com"), by: ada.id)
        (self.ada, self.bob, self.cy, self.eve) = (ada.id, bob.id, cy.id, eve.id)
    }

    /// Ada's trip with Bob and Cy.
    func trip(simplify: Bool = true) async throws -> Group {
        try await groups.create(GroupDraft(name: "Kyoto trip", kind: .trip, currency: .eur, simplifyDebts: simplify, members: [bob, cy]), by: ada)
    }

    /// An expense of `cents` paid by `payer`, shared equally, in `group`.
    @discardableResult
    func expense(_ cents: Int64, paidBy payer: UserID, among people: [UserID], in group: GroupID?, by user: UserID? = nil) async throws(ExpensesError) -> Expense {
        let amount = Money(minorUnits: cents, currency: .eur)
        let day: Day
        do { day = try Day("2027-03-01") } catch { throw .storeUnavailable("\(error)") }
        return try await expenses.add(
            ExpenseDraft(
                description: "Dinner", amount: amount, day: day, category: .food, payers: [Payer(user: payer, amount: amount)],
                participants: people, rule: .equal, group: group
            ),
            by: user ?? payer
        )
    }

    func settle(_ from: UserID, _ to: UserID, _ cents: Int64, in group: GroupID?, by user: UserID? = nil) async throws(ExpensesError) -> Settlement {
        let day: Day
        do { day = try Day("2027-03-02") } catch { throw .storeUnavailable("\(error)") }
        return try await expenses.settle(from: from, to: to, amount: Money(minorUnits: cents, currency: .eur), day: day, in: group, by: user ?? from)
    }

    /// What `other` owes `user` overall, in cents of EUR.
    func overall(_ user: UserID, _ other: UserID) async throws -> Int64 {
        try await expenses.balances(of: user).first { $0.other == other }?.amount.minorUnits ?? 0
    }

    /// What `other` owes `user` within `group`, in cents of EUR.
    func within(_ group: GroupID, _ user: UserID, _ other: UserID) async throws -> Int64 {
        try await expenses.groupBalances(of: user).first { $0.group == group && $0.other == other }?.amount.minorUnits ?? 0
    }

    func sound() async throws -> Bool {
        try await services.verifier.verify().isSound
    }
}

@Suite("Groups: members, and the ledger within a group")
struct GroupsServiceTests {
    @Test("a group is made of its maker first and their friends, each once; strangers and bad names are refused")
    func create() async throws {
        let world = try await World()
        let group = try await world.groups.create(
            GroupDraft(name: "  Flat  ", kind: .home, currency: .jpy, simplifyDebts: false, members: [world.bob, world.ada, world.bob]), by: world.ada
        )
        #expect(group.name == "Flat")
        #expect(group.members == [world.ada, world.bob])
        #expect(group.kind == .home && group.currency == .jpy && !group.simplifyDebts && !group.archived)
        #expect(try await world.groups.group(group.id, for: world.bob) == group)
        // Bob and Eve are not friends: Bob may not add her, and she sees no group.
        await #expect(throws: GroupsError.unknownPeople([world.eve])) {
            try await world.groups.create(GroupDraft(name: "Mine", currency: .eur, members: [world.eve]), by: world.bob)
        }
        #expect(try await world.groups.group(group.id, for: world.eve) == nil)
        #expect(try await world.groups.groups(of: world.eve, archived: false).isEmpty)
        await #expect(throws: GroupsError.invalid(.name(.empty))) {
            try await world.groups.create(GroupDraft(name: "  ", currency: .eur, members: []), by: world.ada)
        }
        await #expect(throws: GroupsError.notFound(group.id)) {
            try await world.groups.update(group.id, to: GroupSettings(name: "Mine now", currency: .eur), by: world.eve)
        }
    }

    @Test("members who are not friends share a group's expenses there, and only there")
    func membersNameEachOther() async throws {
        let world = try await World()
        let trip = try await world.trip()
        // Bob and Cy are not friends: within the trip they may share; outside it, not.
        let dinner = try await world.expense(3000, paidBy: world.bob, among: [world.bob, world.cy], in: trip.id)
        #expect(dinner.group == trip.id)
        await #expect(throws: ExpensesError.unknownPeople([world.cy])) {
            try await world.expense(3000, paidBy: world.bob, among: [world.bob, world.cy], in: nil)
        }
        // Eve is in no group of theirs: she is not named in it, nor does she see it.
        await #expect(throws: ExpensesError.notGroupMembers([world.eve])) {
            try await world.expense(3000, paidBy: world.ada, among: [world.ada, world.eve], in: trip.id)
        }
        await #expect(throws: ExpensesError.notInGroup(trip.id)) { try await world.expenses.debts(in: trip.id, for: world.eve) }
        await #expect(throws: ExpensesError.notInGroup(trip.id)) { try await world.expenses.expenses(in: trip.id, for: world.eve, page: PageRequest()) }
        #expect(try await world.expenses.expenses(in: trip.id, for: world.ada, page: PageRequest()).map(\.id) == [dinner.id])
    }

    @Test("a pair's overall balance is what they share outside groups plus each group's part")
    func overallIsTheSum() async throws {
        let world = try await World()
        let trip = try await world.trip()
        let flat = try await world.groups.create(GroupDraft(name: "Flat", currency: .eur, members: [world.bob]), by: world.ada)
        try await world.expense(3000, paidBy: world.ada, among: [world.ada, world.bob, world.cy], in: trip.id)
        try await world.expense(1000, paidBy: world.ada, among: [world.ada, world.bob], in: flat.id)
        try await world.expense(400, paidBy: world.bob, among: [world.ada, world.bob], in: nil)
        #expect(try await world.within(trip.id, world.ada, world.bob) == 1000)
        #expect(try await world.within(flat.id, world.ada, world.bob) == 500)
        #expect(try await world.overall(world.ada, world.bob) == 1000 + 500 - 200)
        #expect(try await world.within(trip.id, world.bob, world.ada) == -1000)
        let debts = try await world.expenses.debts(in: trip.id, for: world.cy)
        #expect(Set(debts.map { [$0.debtor, $0.creditor] }) == [[world.bob, world.ada], [world.cy, world.ada]])
        // What the trip's expenses came to: each member's parts, and by category; nothing of the flat's.
        let totals = try await world.expenses.totals(in: trip.id, for: world.bob)
        #expect(Set(totals.byMember.map { "\($0.key) \($0.amount.minorUnits)" }) == Set([world.ada, world.bob, world.cy].map { "\($0.rawValue) 1000" }))
        #expect(totals.byCategory.map { "\($0.key) \($0.amount.minorUnits)" } == ["food 3000"])
        await #expect(throws: ExpensesError.notInGroup(trip.id)) { try await world.expenses.totals(in: trip.id, for: world.eve) }
        #expect(try await world.sound())
    }

    @Test("a payment within a group moves the group's balances and the overall ones, and taking it back undoes both")
    func settleWithin() async throws {
        let world = try await World()
        let trip = try await world.trip()
        try await world.expense(3000, paidBy: world.ada, among: [world.ada, world.bob, world.cy], in: trip.id)
        try await world.expense(600, paidBy: world.ada, among: [world.ada, world.bob], in: nil)
        let payment = try await world.settle(world.bob, world.ada, 1000, in: trip.id)
        #expect(payment.group == trip.id)
        #expect(try await world.within(trip.id, world.ada, world.bob) == 0)
        #expect(try await world.overall(world.ada, world.bob) == 300)
        #expect(try await world.expenses.settlements(in: trip.id, for: world.cy, page: PageRequest()).map(\.id) == [payment.id])
        try await world.expenses.undoSettlement(payment.id, by: world.ada)
        #expect(try await world.within(trip.id, world.ada, world.bob) == 1000)
        #expect(try await world.overall(world.ada, world.bob) == 1300)
        // Cy pays Bob within the trip although they are not friends; Eve cannot.
        await #expect(throws: ExpensesError.notInGroup(trip.id)) { try await world.settle(world.eve, world.ada, 100, in: trip.id) }
        #expect(try await world.sound())
    }

    @Test("a payment within a group clears debts only through that group's balances")
    func routingStaysInTheGroup() async throws {
        let world = try await World()
        let trip = try await world.trip()
        // Within the trip Bob owes Ada 10 and Ada owes Cy 10; outside it, Cy owes Ada 50.
        try await world.expense(2000, paidBy: world.ada, among: [world.ada, world.bob], in: trip.id)
        try await world.expense(2000, paidBy: world.cy, among: [world.ada, world.cy], in: trip.id)
        try await world.expense(10000, paidBy: world.ada, among: [world.ada, world.cy], in: nil)
        // Bob pays Cy 10 in the trip: it clears Bob's debt to Ada and Ada's to Cy there.
        let payment = try await world.settle(world.bob, world.cy, 1000, in: trip.id)
        #expect(!payment.legs.isEmpty)
        #expect(try await world.expenses.debts(in: trip.id, for: world.ada).isEmpty)
        #expect(try await world.overall(world.ada, world.cy) == 5000)
        #expect(try await world.sound())
    }

    @Test("suggested payments within a group: simplified across members, or each pair's own debt")
    func suggestions() async throws {
        for simplify in [true, false] {
            let world = try await World()
            let trip = try await world.trip(simplify: simplify)
            // Bob owes Ada 10, Ada owes Cy 10.
            try await world.expense(2000, paidBy: world.ada, among: [world.ada, world.bob], in: trip.id)
            try await world.expense(2000, paidBy: world.cy, among: [world.ada, world.cy], in: trip.id)
            let payments = try await world.expenses.suggestedPayments(in: trip.id, currency: .eur, for: world.bob)
            let expected = simplify
                ? [SuggestedPayment(from: world.bob, to: world.cy, amount: Money(minorUnits: 1000, currency: .eur))]
                : [
                    SuggestedPayment(from: world.ada, to: world.cy, amount: Money(minorUnits: 1000, currency: .eur)),
                    SuggestedPayment(from: world.bob, to: world.ada, amount: Money(minorUnits: 1000, currency: .eur)),
                ]
            #expect(Set(payments.map { "\($0.from)>\($0.to):\($0.amount)" }) == Set(expected.map { "\($0.from)>\($0.to):\($0.amount)" }))
        }
    }

    @Test("a member leaves, or is taken out, only when settled there; the last member archives instead")
    func leaving() async throws {
        let world = try await World()
        let trip = try await world.trip()
        let dinner = try await world.expense(3000, paidBy: world.ada, among: [world.ada, world.bob, world.cy], in: trip.id)
        await #expect(throws: GroupsError.memberNotSettled(world.bob, balances: [Money(minorUnits: -1000, currency: .eur)])) {
            try await world.groups.removeMember(world.bob, from: trip.id, by: world.cy)
        }
        await #expect(throws: GroupsError.memberNotSettled(world.ada, balances: [Money(minorUnits: 2000, currency: .eur)])) {
            try await world.groups.leave(trip.id, by: world.ada)
        }
        _ = try await world.settle(world.bob, world.ada, 1000, in: trip.id)
        let after = try await world.groups.removeMember(world.bob, from: trip.id, by: world.cy)
        #expect(after.members == [world.ada, world.cy])
        // Bob is out: the group and its lists are gone for him, but the expense he is in is not.
        #expect(try await world.groups.group(trip.id, for: world.bob) == nil)
        await #expect(throws: ExpensesError.notInGroup(trip.id)) { try await world.expenses.debts(in: trip.id, for: world.bob) }
        #expect(try await world.expenses.expense(dinner.id, for: world.bob) != nil)
        await #expect(throws: GroupsError.notMember(world.bob)) { try await world.groups.removeMember(world.bob, from: trip.id, by: world.cy) }
        _ = try await world.settle(world.cy, world.ada, 1000, in: trip.id)
        try await world.groups.leave(trip.id, by: world.cy)
        await #expect(throws: GroupsError.lastMember) { try await world.groups.leave(trip.id, by: world.ada) }
        #expect(try await world.sound())
    }

    @Test("a group is archived once everyone is settled; then it takes nothing new until brought back")
    func archiving() async throws {
        let world = try await World()
        let trip = try await world.trip()
        try await world.expense(3000, paidBy: world.ada, among: [world.ada, world.bob, world.cy], in: trip.id)
        await #expect(throws: GroupsError.groupNotSettled) { try await world.groups.setArchived(true, trip.id, by: world.ada) }
        _ = try await world.settle(world.bob, world.ada, 1000, in: trip.id)
        _ = try await world.settle(world.cy, world.ada, 1000, in: trip.id)
        let archived = try await world.groups.setArchived(true, trip.id, by: world.bob)
        #expect(archived.archived)
        #expect(try await world.groups.groups(of: world.ada, archived: false).isEmpty)
        #expect(try await world.groups.groups(of: world.ada, archived: true).map(\.id) == [trip.id])
        await #expect(throws: ExpensesError.groupArchived) { try await world.expense(300, paidBy: world.ada, among: [world.ada, world.bob], in: trip.id) }
        await #expect(throws: GroupsError.archived) {
            try await world.groups.update(trip.id, to: GroupSettings(name: "Renamed", currency: .eur), by: world.ada)
        }
        #expect(try await world.groups.setArchived(false, trip.id, by: world.ada).archived == false)
        try await world.expense(300, paidBy: world.ada, among: [world.ada, world.bob], in: trip.id)
    }

    @Test("an expense moved into, between and out of groups keeps every balance recounting")
    func moving() async throws {
        let world = try await World()
        let trip = try await world.trip()
        let flat = try await world.groups.create(GroupDraft(name: "Flat", currency: .eur, members: [world.bob]), by: world.ada)
        var dinner = try await world.expense(2000, paidBy: world.ada, among: [world.ada, world.bob], in: nil)
        for group in [trip.id, flat.id, nil] {
            var draft = dinner.draft
            draft.group = group
            dinner = try await world.expenses.edit(dinner, to: draft, by: world.ada)
            #expect(dinner.group == group)
            #expect(try await world.within(trip.id, world.ada, world.bob) == (group == trip.id ? 1000 : 0))
            #expect(try await world.within(flat.id, world.ada, world.bob) == (group == flat.id ? 1000 : 0))
            #expect(try await world.overall(world.ada, world.bob) == 1000)
            #expect(try await world.sound())
        }
        // Deleted and restored, it comes back to its group.
        var draft = dinner.draft
        draft.group = trip.id
        dinner = try await world.expenses.edit(dinner, to: draft, by: world.ada)
        try await world.expenses.delete(dinner, by: world.bob)
        #expect(try await world.within(trip.id, world.ada, world.bob) == 0)
        _ = try await world.expenses.restore(dinner.id, by: world.bob)
        #expect(try await world.within(trip.id, world.ada, world.bob) == 1000)
        #expect(try await world.sound())
    }

    @Test("the recount finds a group's balance that drifted from its expenses")
    func recount() async throws {
        let world = try await World()
        let trip = try await world.trip()
        try await world.expense(3000, paidBy: world.ada, among: [world.ada, world.bob, world.cy], in: trip.id)
        let before = try await world.services.verifier.verify()
        #expect(before.isSound && before.groupBalances == 2)
        try await #require(world.services.database).writer().write { db in
            try db.execute(sql: """
                UPDATE group_balance SET amount = amount + 1
                WHERE (group_id, user_low, user_high) = (SELECT group_id, user_low, user_high FROM group_balance LIMIT 1)
                """)
        }
        let after = try await world.services.verifier.verify()
        #expect(!after.isSound)
        #expect(after.differences.map(\.group) == [trip.id])
    }

    @Test("a contact in a group, once linked to an account, is that account in the group, owing what the contact owed")
    func linkedContact() async throws {
        let world = try await World()
        let sam = try await world.services.friends.addContact(name: "Sam", email: nil, by: world.ada)
        let trip = try await world.groups.create(GroupDraft(name: "Trip", currency: .eur, members: [sam.id, world.bob]), by: world.ada)
        try await world.expense(2000, paidBy: world.ada, among: [world.ada, sam.id], in: trip.id)
        // Sam turns out to be Eve: Ada links the contact to Eve's account, and Eve accepts.
        _ = try await world.services.friends.link(sam.id, to: .email("eve@example.com"), by: world.ada)
        _ = try await world.services.friends.accept(world.ada, by: world.eve)
        let group = try #require(try await world.groups.group(trip.id, for: world.eve))
        #expect(group.members == [world.ada, world.eve, world.bob])
        #expect(try await world.within(trip.id, world.ada, world.eve) == 1000)
        #expect(try await world.sound())
    }
}

/// A replica's groups, written as pulled (docs/sync.md): the same reads give the same answers on
/// the replica as on the server.
@Suite("Groups on a replica")
struct GroupsReplicaTests {
    @Test("a group put as pulled, changed, joined and left, reads as on the server; removed, no one sees it")
    func sameAnswers() async throws {
        let world = try await World()
        let copy = LocalServices.inMemory()
        let replica = try #require(copy.groups as? any GroupsReplica)
        func pull(_ user: UserID) async throws {
            for group in try await world.groups.everyGroup(of: user) { try await replica.put(group) }
        }
        func same(_ user: UserID, _ id: GroupID) async throws {
            #expect(try await copy.groups.groups(of: user, archived: false) == world.groups.groups(of: user, archived: false))
            #expect(try await copy.groups.groups(of: user, archived: true) == world.groups.groups(of: user, archived: true))
            #expect(try await copy.groups.group(id, for: user) == world.groups.group(id, for: user))
        }
        let trip = try await world.trip()
        try await pull(world.bob)
        try await same(world.bob, trip.id)
        // Renamed; Cy leaves, and Ada adds him again: he is last now.
        _ = try await world.groups.update(trip.id, to: GroupSettings(name: "Osaka trip", kind: .trip, currency: .jpy, simplifyDebts: false), by: world.ada)
        try await world.groups.leave(trip.id, by: world.cy)
        _ = try await world.groups.addMembers([world.cy], to: trip.id, by: world.ada)
        try await pull(world.bob)
        try await pull(world.bob)
        try await same(world.bob, trip.id)
        #expect(try await copy.groups.group(trip.id, for: world.bob)?.members == [world.ada, world.bob, world.cy])
        #expect(try await copy.groups.group(trip.id, for: world.bob)?.name == "Osaka trip")
        try await replica.removeGroup(trip.id)
        #expect(try await copy.groups.group(trip.id, for: world.bob) == nil)
        #expect(try await copy.groups.everyGroup(of: world.bob).isEmpty)
    }
}
