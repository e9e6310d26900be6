import FlowsServices
import Primitives
import Synchronization
import Testing

@Suite("Who expenses may name")
struct KnownPeopleTests {
    private let ann = UserID(rawValue: "a-ann")
    private let bob = UserID(rawValue: "b-bob")
    private let dee = UserID(rawValue: "d-dee")

    @Test("whether someone has an account is asked once: accounts are never deleted, and an id without one never gets one")
    func rememberedAccounts() async throws {
        let accounts = Questions()
        let existing: Set<UserID> = [ann, bob]
        let people = AccountsPeople(accounts: UnavailableAccounts { people in
            accounts.note(people)
            return people.intersection(existing)
        })
        #expect(try await people.unknown(among: [ann, dee]) == [dee])
        #expect(accounts.asked == [[ann, dee]])
        #expect(try await people.unknown(among: [ann, bob, dee]) == [dee])
        #expect(accounts.asked == [[ann, dee], [bob]])
        #expect(try await people.unknown(among: [ann, bob, dee]) == [dee])
        #expect(accounts.asked.count == 2)
    }
}

/// Every question about who exists, in order.
private final class Questions: Sendable {
    private let questions = Mutex<[Set<UserID>]>([])

    func note(_ people: Set<UserID>) {
        questions.withLock { $0.append(people) }
    }

    var asked: [Set<UserID>] { questions.withLock { $0 } }
}
