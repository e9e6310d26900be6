import Expenses
import ExpensesLive
import Foundation
import PropertyBased
import Primitives
import Testing

private let ann = UserID(rawValue: "a-ann")
private let bob = UserID(rawValue: "b-bob")
private let cy = UserID(rawValue: "c-cy")

private func jpy(_ units: Int64) -> Money { Money(minorUnits: units, currency: .jpy) }
private func rate(_ base: Currency, _ text: String, _ quote: Currency) throws -> ExchangeRate {
    let published = try #require(PublishedRate(text))
    return try #require(ExchangeRate(base: base, quote: quote, rate: published))
}
private func today() throws -> Day { try Day("2026-11-28") }

@Suite("Settling a balance in another currency")
struct ConversionTests {
    let ledger = Ledger()

    /// Ann paid 1000.00 EUR for Bob and her (Bob owes 500.00 EUR); Bob paid 45000 JPY for both
    /// (Ann owes 22500 JPY).
    private func trip() async throws -> LiveExpensesService {
        let service = ledger.service()
        _ = try await service.add(try draft(eur(100_000), paidBy: [(ann, 100_000)], among: [ann, bob], description: "Hotel"), by: ann)
        _ = try await service.add(try draft(jpy(45_000), paidBy: [(bob, 45_000)], among: [ann, bob], description: "Sushi"), by: bob)
        return service
    }

    @Test("converting brings the balance to zero and moves the other currency's by its worth, rounded once")
    func converts() async throws {
        let service = try await trip()
        // 22500 / 162.51 = 138.4530… EUR: 138.45 EUR, which Ann now owes Bob in euros.
        let conversion = try await service.convert(jpy(-22_500), with: bob, at: try rate(.eur, "162.51", .jpy), source: "ECB 2026-11-24", day: try today(), in: nil, by: ann)
        #expect(conversion.from == ann && conversion.to == bob)
        #expect(conversion.amount == jpy(22_500))
        #expect(conversion.conversion?.amount == eur(13_845))
        #expect(try await service.balances(of: ann) == [Balance(other: bob, amount: eur(50_000 - 13_845))])
        let activity = try await service.activity(of: bob, limit: 1)
        #expect(activity.map(\.summary) == ["Conversion, 22500 JPY into 138.45 EUR at 1 EUR = 162.51 JPY (ECB 2026-11-24)"])
        #expect(activity.map(\.kind) == [.settled])
        // It is listed, and read back, with its rate and source.
        #expect(try await service.settlements(of: bob, page: PageRequest()) == [conversion])
        #expect(try await service.paymentHistory(of: conversion.id, for: bob).map(\.payment) == [conversion])
        #expect(try await LiveLedgerVerifier(store: ledger.store).verify().isSound)
    }

    @Test("it is undone as a payment is: both currencies' balances come back")
    func undo() async throws {
        let service = try await trip()
        let before = try await service.balances(of: ann)
        let conversion = try await service.convert(eur(50_000), with: bob, at: try rate(.eur, "175.68", .jpy), source: "agreed", day: try today(), in: nil, by: ann)
        // Bob owed 500.00 EUR: now he owes 87840 JPY less what Ann owed him (22500).
        #expect(conversion.conversion?.amount == jpy(87_840))
        #expect(try await service.balances(of: ann) == [Balance(other: bob, amount: jpy(87_840 - 22_500))])
        try await service.undoSettlement(conversion.id, by: bob)
        #expect(try await service.balances(of: ann) == before)
        #expect(try await service.activity(of: ann, limit: 1).map(\.summary) == [
            "Conversion taken back, 500.00 EUR into 87840 JPY at 1 EUR = 175.68 JPY (agreed)",
        ])
        #expect(try await LiveLedgerVerifier(store: ledger.store).verify().isSound)
    }

    @Test("the rate divides when the balance is in its quote currency, and a half rounds away from zero")
    func rounding() throws {
        let perEuro = try rate(.eur, "200", .jpy)
        // 1 JPY is 0.005 EUR: half a cent, rounded up to one; 3 JPY is 0.015: two cents.
        #expect(try Conversion.converting(jpy(-1), at: perEuro) == eur(1))
        #expect(try Conversion.converting(jpy(3), at: perEuro) == eur(2))
        // 1 EUR = 1.1172 USD: 0.01 EUR is 0.011172 USD, one cent; 10.00 EUR is 11.172, 11.17.
        let dollars = try rate(.eur, "1.1172", .usd)
        #expect(try Conversion.converting(eur(1), at: dollars) == Money(minorUnits: 1, currency: .usd))
        #expect(try Conversion.converting(eur(1_000), at: dollars) == Money(minorUnits: 1_117, currency: .usd))
        // Less than half the smallest unit is refused, not rounded to nothing.
        #expect(throws: ExpensesError.self) { try Conversion.converting(jpy(1), at: try rate(.eur, "300", .jpy)) }
    }

    @Test("a balance that changed since it was read, none at all, or a rate of other currencies is refused, and nothing is written")
    func refusals() async throws {
        let service = try await trip()
        let perEuro = try rate(.eur, "162.51", .jpy)
        let day = try today()
        await #expect(throws: ExpensesError.invalidSettlement("The balance in JPY changed since you read it (it is now -22500 JPY); nothing was converted.")) {
            _ = try await service.convert(jpy(-20_000), with: bob, at: perEuro, source: "ECB 2026-11-24", day: day, in: nil, by: ann)
        }
        await #expect(throws: ExpensesError.invalidSettlement("There is no balance in JPY to convert.")) {
            _ = try await service.convert(jpy(0), with: bob, at: perEuro, source: "ECB 2026-11-24", day: day, in: nil, by: ann)
        }
        await #expect(throws: ExpensesError.self) {
            _ = try await service.convert(jpy(-22_500), with: bob, at: try rate(.eur, "1.1", .usd), source: "agreed", day: day, in: nil, by: ann)
        }
        await #expect(throws: ExpensesError.self) {
            _ = try await service.convert(jpy(-22_500), with: bob, at: perEuro, source: "", day: day, in: nil, by: ann)
        }
        await #expect(throws: ExpensesError.self) {
            _ = try await service.convert(jpy(-22_500), with: bob, at: perEuro, source: "ECB\u{202E}", day: day, in: nil, by: ann)
        }
        await #expect(throws: ExpensesError.unknownPeople([UserID(rawValue: "unknown-zed")])) {
            _ = try await service.convert(jpy(-22_500), with: UserID(rawValue: "unknown-zed"), at: perEuro, source: "agreed", day: day, in: nil, by: ann)
        }
        // Someone with no balance with Ann (Cy) has nothing to convert.
        await #expect(throws: ExpensesError.self) {
            _ = try await service.convert(jpy(100), with: cy, at: perEuro, source: "agreed", day: day, in: nil, by: ann)
        }
        #expect(try ledger.count("settlement") == 0)
        #expect(try await service.balances(of: ann) == [Balance(other: bob, amount: eur(50_000)), Balance(other: bob, amount: jpy(-22_500))])
    }

    @Test("over any conversions and undos, no minor unit is made or lost: balances match a recount and each currency sums to zero")
    func conservesUnits() async throws {
        let people = [ann, bob, cy]
        let currencies: [Currency] = [.eur, .jpy, .usd]
        await propertyCheck(count: 40, input: Gen.int(in: 0...1_000_000)) { seed in
            let ledger = Ledger()
            let service = ledger.service()
            var random = seed &* 2_654_435_761 &+ 7
            func next(_ bound: Int) -> Int {
                random = (random &* 1_103_515_245 &+ 12_345) & 0x7FFF_FFFF
                return random % bound
            }
            var kept: [Settlement] = []
            var expenses: [Expense] = []
            for _ in 0..<30 {
                let user = people[next(3)]
                let other = people[(people.firstIndex(of: user)! + 1 + next(2)) % 3]
                switch next(4) {
                case 0, 1:
                    let currency = currencies[next(3)]
                    let amount = Money(minorUnits: Int64(1 + next(200_000)), currency: currency)
                    if let expenseDraft = try? draft(amount, paidBy: [(user, amount.minorUnits)], among: [user, other]),
                       let added = try? await service.add(expenseDraft, by: user) {
                        expenses.append(added)
                    }
                case 2:
                    let balances = ((try? await service.balances(of: user)) ?? []).filter { $0.other == other }
                    guard !balances.isEmpty else { continue }
                    let balance = balances[next(balances.count)]
                    let into = currencies.filter { $0 != balance.amount.currency }[next(2)]
                    let digits = "\(1 + next(99_999))"
                    let text = next(2) == 0 ? digits : "\(digits.prefix(1)).\(digits.dropFirst().isEmpty ? "5" : String(digits.dropFirst()))"
                    guard let published = PublishedRate(text),
                          let rate = next(2) == 0 ? ExchangeRate(base: balance.amount.currency, quote: into, rate: published)
                              : ExchangeRate(base: into, quote: balance.amount.currency, rate: published),
                          let day = try? Day("2026-11-28")
                    else { continue }
                    if let conversion = try? await service.convert(balance.amount, with: other, at: rate, source: "agreed", day: day, in: nil, by: user) {
                        // Exactly the balance, and exactly its worth at the rate.
                        #expect(conversion.amount.minorUnits == balance.amount.minorUnits.magnitude)
                        #expect(conversion.conversion?.amount == rate.convert(conversion.amount))
                        kept.append(conversion)
                    }
                default:
                    guard !kept.isEmpty else { continue }
                    let undone = kept.remove(at: next(kept.count))
                    try? await service.undoSettlement(undone.id, by: undone.from)
                }
            }
            var naive = PairBalances()
            for expense in expenses { try? naive.apply(expense.balanceDeltas) }
            for settlement in kept { try? naive.apply(settlement.balanceDeltas) }
            for person in people {
                let maintained = (try? await service.balances(of: person)) ?? []
                #expect(maintained == naive.balances(of: person).map { Balance(other: $0.other, amount: $0.amount) })
            }
            for (_, positions) in naive.netPositions() {
                #expect(positions.values.reduce(0, +) == 0)
            }
            #expect((try? await LiveLedgerVerifier(store: ledger.store).verify().isSound) == true)
        }
    }
}
