import Accounts
import Expenses
import Friends
import FriendsData
import FriendsDataPostgres
import Primitives
import Testing

@Suite("Friends on PostgreSQL", TestDatabase.required)
struct FriendsPostgresTests {
    /// Ada, Bob and Cy, signed up and signed out.
    static func people(_ world: PostgresWorld) async throws -> (ada: User, bob: User, cy: User) {
        var users: [User] = []
        for name in ["Ada", "Bob", "Cy"] {
            users.append(try await world.services.accounts.signUp(email: "\(name.lowercased())@example.com", displayName: name, password: "correct horse"))
            try await world.services.accounts.signOut()
        }
        return (users[0], users[1], users[2])
    }

    @Test("friendships are mutual; a friend with an open balance is not removed; one settled is, from both sides")
    func friendships() async throws {
        try await PostgresWorld.run { world in
            let (ada, bob, cy) = try await Self.people(world)
            let friends = world.services.friends
            _ = try await friends.befriend(.friendCode(bob.friendCode.description.replacingOccurrences(of: "-", with: " ").lowercased()), by: ada.id)
            _ = try await friends.befriend(.email(" CY@example.com "), by: ada.id)
            #expect(try await friends.friends(of: ada.id).map(\.name.value) == ["Bob", "Cy"])
            #expect(try await friends.friends(of: bob.id).map(\.id) == [ada.id])
            await #expect(throws: FriendsError.alreadyFriends(bob.displayName)) { try await friends.add(.email("bob@example.com"), by: ada.id) }
            await #expect(throws: FriendsError.unknownEmail("dee@example.com")) { try await friends.add(.email("dee@example.com"), by: ada.id) }
            let dinner = try await world.services.expenses.add(try draft(eur(1250), paidBy: [(ada.id, 1250)], among: [ada.id, bob.id]), by: ada.id)
            do {
                try await friends.remove(bob.id, by: ada.id)
                Issue.record("a friend who owes was removed")
            } catch FriendsError.notSettled(let name, let open) {
                #expect(name == bob.displayName)
                #expect(open == [eur(625)])
            }
            try await world.services.expenses.delete(dinner, by: ada.id)
            try await friends.remove(bob.id, by: ada.id)
            #expect(try await friends.friends(of: ada.id).map(\.id) == [cy.id])
            #expect(try await friends.friends(of: bob.id).isEmpty)
        }
    }

    @Test("contacts: names and emails unique per owner; linked to an account they bring their expenses and balances")
    func contacts() async throws {
        try await PostgresWorld.run { world in
            let (ada, bob, _) = try await Self.people(world)
            let friends = world.services.friends, expenses = world.services.expenses
            let sam = try await friends.addContact(name: "Sam", email: "Sam@Example.com", by: ada.id)
            await #expect(throws: FriendsError.contactNameTaken(try DisplayName("SAM"))) { try await friends.addContact(name: "SAM", email: nil, by: ada.id) }
            await #expect(throws: FriendsError.contactEmailTaken("sam@example.com")) { try await friends.addContact(name: "Samuel", email: "sam@example.com", by: ada.id) }
            await #expect(throws: FriendsError.emailHasAccount("bob@example.com")) { try await friends.addContact(name: "Robert", email: "bob@example.com", by: ada.id) }
            // Another user's contacts are theirs: the same name is fine.
            let bobsSam = try await friends.addContact(name: "Sam", email: nil, by: bob.id)
            // Renamed on PostgreSQL as on SQLite: its owner only, never to another of their contacts' names.
            #expect(try await friends.renameContact(bobsSam.id, to: "Samantha", by: bob.id).name.value == "Samantha")
            #expect(try await friends.friend(bobsSam.id, of: bob.id)?.name.value == "Samantha")
            _ = try await friends.addContact(name: "Kim", email: nil, by: bob.id)
            await #expect(throws: FriendsError.contactNameTaken(try DisplayName("KIM"))) { try await friends.renameContact(bobsSam.id, to: "KIM", by: bob.id) }
            await #expect(throws: FriendsError.notAContact) { try await friends.renameContact(bobsSam.id, to: "Mine", by: ada.id) }
            _ = try await expenses.add(try draft(eur(3000), paidBy: [(ada.id, 3000)], among: [ada.id, sam.id]), by: ada.id)
            #expect(try await expenses.balances(of: ada.id) == [Balance(other: sam.id, amount: eur(1500))])
            // Sam signs up with the contact's email, and Ada confirms it is him: the contact becomes
            // the account.
            let samAccount = try await world.services.accounts.signUp(email: "sam@example.com", displayName: "Sam Park", password: "correct horse")
            #expect(try await friends.claimContacts(for: samAccount.id) == [ada.id])
            #expect(try await expenses.balances(of: ada.id) == [Balance(other: sam.id, amount: eur(1500))], "nothing moves before Ada confirms")
            _ = try await friends.accept(samAccount.id, by: ada.id)
            #expect(try await expenses.balances(of: ada.id) == [Balance(other: samAccount.id, amount: eur(1500))])
            #expect(try await friends.friends(of: ada.id).map(\.id) == [samAccount.id])
            #expect(try await expenses.expenses(of: samAccount.id, page: PageRequest()).count == 1)
            #expect(try await world.services.verifier.verify().isSound)
            // A contact in an expense with the account cannot be linked to it (Sam is Ada's friend now).
            let dee = try await friends.addContact(name: "Dee", email: nil, by: ada.id)
            _ = try await expenses.add(try draft(eur(900), paidBy: [(ada.id, 900)], among: [ada.id, dee.id, samAccount.id]), by: ada.id)
            await #expect(throws: FriendsError.cannotLink("They are in an expense or a payment together, so they cannot be one person.")) {
                try await friends.link(dee.id, to: .email("sam@example.com"), by: ada.id)
            }
            #expect(try await friends.friend(dee.id, of: ada.id)?.name.value == "Dee")
        }
    }

    @Test("whom many users may name, asked at once, is answered for each user alone")
    func namableAtOnce() async throws {
        try await PostgresWorld.run { world in
            let (ada, bob, cy) = try await Self.people(world)
            let friends = world.services.friends
            _ = try await friends.befriend(.email("bob@example.com"), by: ada.id)
            let sam = try await friends.addContact(name: "Sam", email: nil, by: ada.id)
            let gone = try await friends.addContact(name: "Gone", email: nil, by: ada.id)
            try await friends.remove(gone.id, by: ada.id)
            let everyone: Set<UserID> = [ada.id, bob.id, cy.id, sam.id, gone.id, UserID(rawValue: "no-one")]
            // Who each of them may name, among everyone (themselves are no one's to name).
            let expected: [UserID: Set<UserID>] = [ada.id: [bob.id, sam.id], bob.id: [ada.id], cy.id: []]
            let store = PostgresFriendsStore(database: world.database)
            let answers = try await withThrowingTaskGroup(of: (UserID, Set<String>).self) { group in
                for _ in 0..<20 {
                    for user in expected.keys {
                        group.addTask { (user, try await store.friendIDs(of: user.rawValue, among: everyone.map(\.rawValue))) }
                    }
                }
                return try await group.reduce(into: [(UserID, Set<String>)]()) { $0.append($1) }
            }
            #expect(answers.count == 60)
            for (user, answer) in answers {
                #expect(answer == Set((expected[user] ?? []).map(\.rawValue)), "\(user)")
            }
            #expect(try await store.friendIDs(of: ada.id.rawValue, among: []) == [])
        }
    }

    @Test("the store refuses what its checks refuse, as a refusal naming the rule")
    func storeRefusals() async throws {
        try await PostgresWorld.run { world in
            let store = PostgresFriendsStore(database: world.database)
            do {
                try await store.write { try $0.insert(ContactRecord(id: "c", ownerID: "c", name: "Self", email: nil, emailKey: nil, createdAt: 0)) }
                Issue.record("a contact of itself was kept")
            } catch FriendsDataError.refused(let rule) {
                #expect(rule.contains("contact_check"))
            }
            await #expect(throws: FriendsDataError.self) {
                try await store.write { try $0.insert(ContactRecord(id: "d", ownerID: "a", name: "  ", email: nil, emailKey: nil, createdAt: 0)) }
            }
            await #expect(throws: FriendsDataError.self) {
                try await store.write { try $0.insert(ContactRecord(id: "e", ownerID: "a", name: "E", email: "E@x.io", emailKey: "E@x.io", createdAt: 0)) }
            }
            await #expect(throws: FriendsDataError.self) { try await store.write { try $0.befriend("a", "a", since: 0) } }
            #expect(try await store.read { try $0.contacts(ownerID: "a").count } == 0)
        }
    }
}
