import Expenses
import ExpensesLive
import Foundation
import Primitives
import Testing

private let ann = UserID(rawValue: "a-ann")
private let bob = UserID(rawValue: "b-bob")
private let cy = UserID(rawValue: "c-cy")
private let dan = UserID(rawValue: "d-dan")

/// Ann is friends with Bob and Cy; Bob and Cy are not friends; Dan is no one's friend.
/// With `blocks`, one of each pair blocked the other (either way: the ledger does not ask who).
private struct Circles: PeopleDirectory {
    static let friends: [UserID: Set<UserID>] = [ann: [bob, cy], bob: [ann], cy: [ann]]
    var blocks: Set<Set<UserID>> = []

    func strangers(among people: Set<UserID>, to user: UserID) async throws -> Set<UserID> {
        // A block ends a friendship.
        people.subtracting(Self.friends[user, default: []]).union(people.filter { blocks.contains([user, $0]) })
    }

    func blocked(among people: Set<UserID>, for user: UserID) async throws -> Set<UserID> {
        people.filter { blocks.contains([user, $0]) }
    }
}

@Suite("Whom an expense or a payment may name")
struct StrangersTests {
    let ledger = Ledger()

    private var service: LiveExpensesService { service(blocks: []) }

    /// The service with `blocks`; `seed` other than another service's on the same store, so that
    /// their new ids differ.
    private func service(blocks: Set<Set<UserID>>, seed: UInt64 = 5) -> LiveExpensesService {
        LiveExpensesService(
            store: ledger.store, people: Circles(blocks: blocks), random: SeededRandomSource(seed: seed), now: { Date(timeIntervalSince1970: 1_800_000_000) }
        )
    }

    @Test("an expense naming a stranger is refused, naming only the strangers, and nothing is written")
    func addingWithAStranger() async throws {
        let service = service
        await #expect(throws: ExpensesError.unknownPeople([dan])) {
            try await service.add(try draft(eur(900), paidBy: [(ann, 900)], among: [ann, bob, dan]), by: ann)
        }
        // The payer is named too: no one can say a stranger paid for them.
        await #expect(throws: ExpensesError.unknownPeople([cy])) {
            try await service.add(try draft(eur(900), paidBy: [(cy, 900)], among: [bob]), by: bob)
        }
        #expect(try ledger.count("expense") == 0)
        #expect(try ledger.count("balance") == 0)
        #expect(try ledger.count("activity") == 0)
        // Friends, and a personal expense, go through.
        _ = try await service.add(try draft(eur(900), paidBy: [(ann, 900)], among: [ann, bob, cy]), by: ann)
        _ = try await service.add(try draft(eur(500), paidBy: [(dan, 500)], among: [dan]), by: dan)
        #expect(try ledger.count("expense") == 2)
    }

    @Test("an edit keeps the people the expense named but adds only the editor's friends")
    func editing() async throws {
        let service = service
        let dinner = try await service.add(try draft(eur(900), paidBy: [(ann, 900)], among: [ann, bob, cy]), by: ann)
        // Bob is not Cy's friend, but Cy was in it: Bob may change the split, Cy staying.
        let edited = try await service.edit(dinner, to: try draft(eur(1200), paidBy: [(cy, 1200)], among: [ann, bob, cy]), by: bob)
        #expect(edited.amount == eur(1200))
        // Dan was not in it and is not Bob's friend.
        await #expect(throws: ExpensesError.unknownPeople([dan])) {
            try await service.edit(edited, to: try draft(eur(1200), paidBy: [(bob, 1200)], among: [bob, cy, dan]), by: bob)
        }
        #expect(try await service.expense(dinner.id, for: bob) == edited)
        #expect(try await service.balances(of: cy) == [Balance(other: ann, amount: eur(400)), Balance(other: bob, amount: eur(400))])
        // A stranger to the editor who was in the expense before may stay while others go.
        let second = try await service.edit(edited, to: try draft(eur(600), paidBy: [(bob, 600)], among: [bob, cy]), by: bob)
        #expect(try await service.balances(of: cy) == [Balance(other: bob, amount: eur(-300))])
        // Once Cy is out of it, Bob cannot bring him back: he was not in the expense as it is now.
        let third = try await service.edit(second, to: try draft(eur(600), paidBy: [(bob, 600)], among: [ann, bob]), by: bob)
        await #expect(throws: ExpensesError.unknownPeople([cy])) {
            try await service.edit(third, to: try draft(eur(600), paidBy: [(bob, 600)], among: [bob, cy]), by: bob)
        }
    }

    @Test("a payment with a stranger goes only from the one who owes, in the currency owed, and at most what is owed")
    func settling() async throws {
        let service = service
        let day = try Day("2026-11-22")
        // Ann adds a dinner Cy paid, shared with Bob and her: Bob owes Cy, who is not his friend.
        _ = try await service.add(try draft(eur(900), paidBy: [(cy, 900)], among: [ann, bob, cy]), by: ann)
        #expect(try await service.balances(of: bob) == [Balance(other: cy, amount: eur(-300))])
        await #expect(throws: ExpensesError.unknownPeople([cy])) {
            try await service.settle(from: bob, to: cy, amount: Money(minorUnits: 500, currency: .usd), day: day, by: bob)
        }
        await #expect(throws: ExpensesError.unknownPeople([dan])) {
            try await service.settle(from: dan, to: bob, amount: eur(500), day: day, by: bob)
        }
        // More than Bob owes would leave Cy owing Bob; Cy paying Bob, who owes him, likewise.
        await #expect(throws: ExpensesError.invalidSettlement("With someone who is not your friend or contact, a payment settles at most what is owed: 3.00 EUR.")) {
            try await service.settle(from: bob, to: cy, amount: eur(301), day: day, by: bob)
        }
        await #expect(throws: ExpensesError.unknownPeople([cy])) {
            try await service.settle(from: cy, to: bob, amount: eur(100), day: day, by: bob)
        }
        #expect(try ledger.count("settlement") == 0)
        _ = try await service.settle(from: bob, to: cy, amount: eur(100), day: day, by: bob)
        _ = try await service.settle(from: bob, to: cy, amount: eur(200), day: day, by: cy)
        #expect(try await service.balances(of: bob) == [])
        // Settled: no balance left, so no further payment between the two strangers.
        await #expect(throws: ExpensesError.unknownPeople([bob])) {
            try await service.settle(from: cy, to: bob, amount: eur(100), day: day, by: cy)
        }
        #expect(try ledger.count("settlement") == 2)
        // Friends settle whatever their balance.
        _ = try await service.settle(from: ann, to: bob, amount: eur(100), day: day, by: bob)
    }

    @Test("restoring writes an expense again: only someone who may name everyone in it restores it")
    func restoring() async throws {
        let service = service
        let dinner = try await service.add(try draft(eur(900), paidBy: [(ann, 900)], among: [ann, bob, cy]), by: ann)
        try await service.delete(dinner, by: ann)
        // Cy is a stranger to Bob: he cannot bring back what names her, though he was in it.
        await #expect(throws: ExpensesError.unknownPeople([cy])) { try await service.restore(dinner.id, by: bob) }
        #expect(try await service.restore(dinner.id, by: ann) == dinner)
    }

    @Test("with a block between two people, neither adds to, changes, deletes, restores or settles what they share")
    func blocked() async throws {
        let day = try Day("2026-11-22")
        let before = service
        let dinner = try await before.add(try draft(eur(900), paidBy: [(ann, 900)], among: [ann, bob]), by: ann)
        let lunch = try await before.add(try draft(eur(600), paidBy: [(bob, 600)], among: [ann, bob]), by: bob)
        try await before.delete(lunch, by: bob)
        let paid = try await before.settle(from: bob, to: ann, amount: eur(100), day: day, by: bob)
        let balances = try await before.balances(of: ann)
        let blocked = service(blocks: [[ann, bob]], seed: 6)
        for user in [ann, bob] {
            await #expect(throws: ExpensesError.blocked([user == ann ? bob : ann])) {
                try await blocked.edit(dinner, to: try draft(eur(100), paidBy: [(ann, 100)], among: [ann, bob]), by: user)
            }
            await #expect(throws: ExpensesError.blocked([user == ann ? bob : ann])) { try await blocked.delete(dinner, by: user) }
            await #expect(throws: ExpensesError.self) { try await blocked.restore(lunch.id, by: user) }
            await #expect(throws: ExpensesError.blocked([user == ann ? bob : ann])) { try await blocked.undoSettlement(paid.id, by: user) }
            await #expect(throws: ExpensesError.blocked([user == ann ? bob : ann])) {
                try await blocked.settle(from: bob, to: ann, amount: eur(100), day: day, by: user)
            }
        }
        // Both still see it all, as it was.
        #expect(try await blocked.balances(of: ann) == balances)
        #expect(try await blocked.expense(dinner.id, for: bob) == dinner)
        // Cy, a friend of Ann's, still changes what she shares with Ann.
        let tea = try await blocked.add(try draft(eur(300), paidBy: [(cy, 300)], among: [ann, cy]), by: cy)
        try await blocked.delete(tea, by: cy)
    }
}
