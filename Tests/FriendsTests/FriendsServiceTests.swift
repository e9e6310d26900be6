import Accounts
import Expenses
import FlowsServices
import Friends
import Foundation
import PropertyBased
import Primitives
import Testing

/// The app's services on a private in-memory store, with three accounts.
private struct World {
    let services = LocalServices.inMemory()
    var friends: any FriendsService { services.friends }
    var expenses: any ExpensesService { services.expenses }

    func account(_ name: String) async throws -> User {
        let user = try await services.accounts.signUp(email: "\(name.lowercased())@example.com", displayName: name, password: "correct horse")
        try await services.accounts.signOut()
        return user
    }

    /// Makes `a` and `b` friends (both ways), so each may name the other in expenses: a asks, b
    /// accepts.
    func befriend(_ a: User, _ b: User) async throws {
        try await friends.befriend(.friendCode(b.friendCode.description), by: a.id)
    }

    /// Links `contact` to the account `query` names, as its owner `user`; the account accepts
    /// the request when the two were not friends yet. The account, now a friend.
    func linked(_ contact: UserID, to query: AccountQuery, by user: UserID) async throws -> Friend {
        switch try await friends.link(contact, to: query, by: user) {
        case .friends(let friend):
            return friend
        case .requested(let account):
            _ = try await friends.accept(user, by: account.id)
            return try #require(try await friends.friend(account.id, of: user))
        }
    }

    /// An expense of `amount` cents paid by `payer`, shared equally.
    @discardableResult
    func expense(_ amount: Int64, paidBy payer: UserID, among people: [UserID], by user: UserID? = nil, currency: Currency = .eur) async throws -> Expense {
        try await expenses.add(
            ExpenseDraft(
                description: "Dinner", amount: Money(minorUnits: amount, currency: currency), day: try Day("2026-11-22"), category: .food,
                payers: [Payer(user: payer, amount: Money(minorUnits: amount, currency: currency))], participants: people, rule: .equal
            ),
            by: user ?? payer
        )
    }
}

@Suite("Friends: accounts and contacts")
struct FriendsServiceTests {
    @Test("a user has at most 5,000 friends and 5,000 contacts: one more is refused, naming the limit and whose it is")
    func limits() async throws {
        let world = World()
        let ada = try await world.account("Ada")
        let bob = try await world.account("Bob")
        let cy = try await world.account("Cy")
        let limits = FriendLimits()
        // Ada: a full list of contacts and one friend short of the most; Cy: a full list of friends.
        try await #require(world.services.database).writer().write { db in
            for index in 0..<limits.contacts {
                try db.execute(
                    sql: "INSERT INTO contact (id, owner_id, name, created_at) VALUES (?, ?, ?, 0)", arguments: ["c-\(index)", ada.id.rawValue, "Contact \(index)"]
                )
            }
            for index in 0..<limits.friends - 1 {
                try db.execute(sql: "INSERT INTO friendship (user_id, friend_id, since) VALUES (?, ?, 0)", arguments: [ada.id.rawValue, "f-\(index)"])
            }
            for index in 0..<limits.friends {
                try db.execute(sql: "INSERT INTO friendship (user_id, friend_id, since) VALUES (?, ?, 0)", arguments: [cy.id.rawValue, "g-\(index)"])
            }
        }
        await #expect(throws: FriendsError.tooManyContacts(limit: 5_000)) { try await world.friends.addContact(name: "One more", email: nil, by: ada.id) }
        _ = try await world.friends.befriend(.email("bob@example.com"), by: ada.id)
        await #expect(throws: FriendsError.tooManyFriends(nil, limit: 5_000)) { try await world.friends.add(.email("cy@example.com"), by: ada.id) }
        await #expect(throws: FriendsError.tooManyFriends(try DisplayName("Cy"), limit: 5_000)) { try await world.friends.add(.email("cy@example.com"), by: bob.id) }
        #expect(FriendsError.tooManyFriends(try DisplayName("Cy"), limit: 5_000).message == "Cy has 5000 friends, the most one may have.")
        // Linking a contact makes a friend too: Bob's contact cannot become Cy, who has no room;
        // nor does Eve, signing up with the email of Bob's contact, claim it with no room left.
        let cee = try await world.friends.addContact(name: "Cee", email: nil, by: bob.id)
        await #expect(throws: FriendsError.tooManyFriends(try DisplayName("Cy"), limit: 5_000)) {
            try await world.friends.link(cee.id, to: .email("cy@example.com"), by: bob.id)
        }
        #expect(try await world.friends.friend(cee.id, of: bob.id)?.isContact == true, "still Bob's contact")
        _ = try await world.friends.addContact(name: "Eve", email: "eve@example.com", by: bob.id)
        let eve = try await world.account("Eve")
        try await #require(world.services.database).writer().write { db in
            for index in 0..<limits.friends {
                try db.execute(sql: "INSERT INTO friendship (user_id, friend_id, since) VALUES (?, ?, 0)", arguments: [eve.id.rawValue, "e-\(index)"])
            }
        }
        #expect(try await world.friends.claimContacts(for: eve.id).isEmpty, "Eve has no room to ask Bob")
        #expect(try await world.friends.friends(of: bob.id).filter(\.isContact).map(\.name.value) == ["Cee", "Eve"])
    }

    @Test("names as the user knows people: friends and their own contacts, other accounts; someone else's contact has none")
    func names() async throws {
        let world = World()
        let ada = try await world.account("Ada")
        let bob = try await world.account("Bob")
        let cy = try await world.account("Cy")
        _ = try await world.friends.befriend(.email("bob@example.com"), by: ada.id)
        let sam = try await world.friends.addContact(name: "Sam Park", email: nil, by: ada.id)
        let bobsContact = try await world.friends.addContact(name: "Dee", email: nil, by: bob.id)
        let names = try await world.friends.names(of: [bob.id, sam.id, cy.id, bobsContact.id], for: ada.id)
        #expect(names.mapValues(\.value) == [bob.id: "Bob", sam.id: "Sam Park", cy.id: "Cy"])
        #expect(try await world.friends.names(of: [], for: ada.id).isEmpty)
    }

    @Test("adding by friend code (any case, dashes or not) or by email asks; accepting makes a mutual friendship")
    func addMutual() async throws {
        let world = World()
        let ada = try await world.account("Ada")
        let bob = try await world.account("Bob")
        let cy = try await world.account("Cy")
        let code = bob.friendCode.description.lowercased().replacingOccurrences(of: "-", with: " ")
        let found = try await world.friends.find(.friendCode(code), for: ada.id)
        // A look-up shows the id and name, never the email.
        #expect(found == PublicProfile(id: bob.id, name: bob.displayName))
        #expect(try await world.friends.find(.email("BOB@example.com"), for: ada.id) == found)
        #expect(try await world.friends.friends(of: ada.id).isEmpty)
        // Asking is a request: nobody is a friend until Bob accepts, and no expense names him.
        #expect(try await world.friends.add(.friendCode(code), by: ada.id) == .requested(found))
        #expect(try await world.friends.add(.email("bob@example.com"), by: ada.id) == .requested(found))
        #expect(try await world.friends.friends(of: ada.id).isEmpty)
        #expect(try await world.friends.friends(of: bob.id).isEmpty)
        await #expect(throws: ExpensesError.unknownPeople([bob.id])) { try await world.expense(900, paidBy: ada.id, among: [ada.id, bob.id]) }
        let waiting = try await world.friends.requests(of: bob.id)
        #expect(waiting.incoming.map(\.person) == [PublicProfile(id: ada.id, name: ada.displayName)])
        #expect(waiting.outgoing.isEmpty && waiting.blocked.isEmpty)
        #expect(try await world.friends.requests(of: ada.id).outgoing.map(\.person) == [found])
        // Only the one asked accepts.
        await #expect(throws: FriendsError.noRequest) { try await world.friends.accept(bob.id, by: ada.id) }
        await #expect(throws: FriendsError.noRequest) { try await world.friends.accept(ada.id, by: cy.id) }
        // Once friends, they see each other's email and friend code.
        let accepted = try await world.friends.accept(ada.id, by: bob.id)
        #expect(accepted == Friend(id: ada.id, name: ada.displayName, kind: .account(email: ada.email, friendCode: ada.friendCode)))
        #expect(try await world.friends.friend(bob.id, of: ada.id) == Friend(id: bob.id, name: bob.displayName, kind: .account(email: bob.email, friendCode: bob.friendCode)))
        #expect(try await world.friends.requests(of: bob.id) == FriendRequests())
        #expect(try await world.friends.requests(of: ada.id) == FriendRequests())
        // A request answered by one the other way is an acceptance.
        #expect(try await world.friends.add(.email(" CY@Example.com "), by: ada.id) == .requested(PublicProfile(id: cy.id, name: cy.displayName)))
        guard case .friends(let ada2) = try await world.friends.add(.friendCode(ada.friendCode.description), by: cy.id) else {
            Issue.record("Cy's request did not accept Ada's")
            return
        }
        #expect(ada2.id == ada.id)
        #expect(try await world.friends.friends(of: ada.id).map(\.id) == [bob.id, cy.id])
        #expect(try await world.friends.friends(of: bob.id).map(\.id) == [ada.id])
        #expect(try await world.friends.friends(of: cy.id).map(\.id) == [ada.id])
        // Nobody else sees anything.
        #expect(try await world.friends.friend(cy.id, of: bob.id) == nil)
    }

    @Test("declining, taking back and blocking: a block ends the friendship, refuses requests both ways, and freezes what they share")
    func declineAndBlock() async throws {
        let world = World()
        let ada = try await world.account("Ada")
        let bob = try await world.account("Bob")
        let cy = try await world.account("Cy")
        // Declined, and taken back: either way no request is left, and asking again is allowed.
        _ = try await world.friends.add(.email("bob@example.com"), by: ada.id)
        try await world.friends.dropRequest(with: ada.id, by: bob.id)
        #expect(try await world.friends.requests(of: ada.id).outgoing.isEmpty)
        await #expect(throws: FriendsError.noRequest) { try await world.friends.dropRequest(with: ada.id, by: bob.id) }
        _ = try await world.friends.add(.email("bob@example.com"), by: ada.id)
        try await world.friends.dropRequest(with: bob.id, by: ada.id)
        #expect(try await world.friends.requests(of: bob.id).incoming.isEmpty)
        // Cy blocks Ada's request: no request of Ada's reaches her again, nor can Cy ask Ada.
        _ = try await world.friends.add(.email("cy@example.com"), by: ada.id)
        try await world.friends.block(ada.id, by: cy.id)
        #expect(try await world.friends.requests(of: cy.id) == FriendRequests(blocked: [PublicProfile(id: ada.id, name: ada.displayName)]))
        #expect(try await world.friends.requests(of: ada.id) == FriendRequests())
        await #expect(throws: FriendsError.notTakingRequests(cy.displayName)) { try await world.friends.add(.email("cy@example.com"), by: ada.id) }
        await #expect(throws: FriendsError.notTakingRequests(cy.displayName)) { try await world.friends.find(.email("cy@example.com"), for: ada.id) }
        await #expect(throws: FriendsError.blockedByYou(ada.displayName)) { try await world.friends.add(.email("ada@example.com"), by: cy.id) }
        // Unblocked, requests pass again.
        try await world.friends.unblock(ada.id, by: cy.id)
        #expect(try await world.friends.add(.email("cy@example.com"), by: ada.id) == .requested(PublicProfile(id: cy.id, name: cy.displayName)))
        // Bob, a friend who owes Ada, blocks her: the friendship ends at once, balances stay seen
        // by both, and neither adds to them or changes them.
        try await world.befriend(ada, bob)
        let dinner = try await world.expense(900, paidBy: ada.id, among: [ada.id, bob.id])
        try await world.friends.block(ada.id, by: bob.id)
        #expect(try await world.friends.friends(of: ada.id).isEmpty)
        #expect(try await world.friends.friends(of: bob.id).isEmpty)
        #expect(try await world.expenses.balances(of: ada.id) == [Balance(other: bob.id, amount: Money(minorUnits: 450, currency: .eur))])
        #expect(try await world.expenses.balances(of: bob.id) == [Balance(other: ada.id, amount: Money(minorUnits: -450, currency: .eur))])
        await #expect(throws: ExpensesError.unknownPeople([bob.id])) { try await world.expense(100, paidBy: ada.id, among: [ada.id, bob.id]) }
        await #expect(throws: ExpensesError.blocked([ada.id])) { try await world.expenses.delete(dinner, by: bob.id) }
        await #expect(throws: ExpensesError.blocked([bob.id])) {
            try await world.expenses.settle(from: bob.id, to: ada.id, amount: Money(minorUnits: 450, currency: .eur), day: try Day("2026-11-23"), by: ada.id)
        }
        // Refused: oneself, a contact (removed instead), an id that is no account.
        let sam = try await world.friends.addContact(name: "Sam", email: nil, by: ada.id)
        await #expect(throws: FriendsError.yourself) { try await world.friends.block(ada.id, by: ada.id) }
        await #expect(throws: FriendsError.notAnAccount) { try await world.friends.block(sam.id, by: ada.id) }
        await #expect(throws: FriendsError.notAnAccount) { try await world.friends.block(UserID(rawValue: "nobody"), by: ada.id) }
    }

    @Test("linking a contact to an account that is not a friend asks them first; accepting links it")
    func linkByRequest() async throws {
        let world = World()
        let ada = try await world.account("Ada")
        let dee = try await world.account("Dee")
        let sam = try await world.friends.addContact(name: "Sam", email: nil, by: ada.id)
        let lunch = try await world.expense(1_000, paidBy: ada.id, among: [ada.id, sam.id])
        let asked = try await world.friends.link(sam.id, to: .email("dee@example.com"), by: ada.id)
        #expect(asked == .requested(PublicProfile(id: dee.id, name: dee.displayName)))
        // Until Dee accepts, Sam is still Ada's contact, and Dee owes nothing.
        #expect(try await world.friends.friend(sam.id, of: ada.id)?.name.value == "Sam")
        #expect(try await world.expenses.balances(of: dee.id).isEmpty)
        let incoming = try await world.friends.requests(of: dee.id).incoming
        #expect(incoming.map(\.link) == [.sendersContact(try DisplayName("Sam"))])
        #expect(try await world.friends.requests(of: ada.id).outgoing.map(\.link) == [.sendersContact(try DisplayName("Sam"))])
        _ = try await world.friends.accept(ada.id, by: dee.id)
        #expect(try await world.friends.friends(of: ada.id).map(\.id) == [dee.id])
        #expect(try await world.expenses.balances(of: dee.id) == [Balance(other: ada.id, amount: Money(minorUnits: -500, currency: .eur))])
        #expect(try await world.services.verifier.verify().isSound)
        // The expense as its changes kept it names Dee too, as the expense does now.
        let kept = try await world.expenses.history(of: lunch.id, for: dee.id).compactMap(\.expense)
        #expect(kept.map(\.people) == [[ada.id, dee.id]])
    }

    @Test("refused, saying which: yourself, a duplicate, an unknown or mistyped code, an unknown or invalid email")
    func refusals() async throws {
        let world = World()
        let ada = try await world.account("Ada")
        let bob = try await world.account("Bob")
        _ = try await world.friends.befriend(.email("bob@example.com"), by: ada.id)
        await #expect(throws: FriendsError.yourself) { try await world.friends.add(.friendCode(ada.friendCode.description), by: ada.id) }
        await #expect(throws: FriendsError.alreadyFriends(bob.displayName)) { try await world.friends.add(.email("BOB@example.com"), by: ada.id) }
        await #expect(throws: FriendsError.alreadyFriends(ada.displayName)) { try await world.friends.add(.email("ada@example.com"), by: bob.id) }
        await #expect(throws: FriendsError.unknownEmail("zed@example.com")) { try await world.friends.add(.email("zed@example.com"), by: ada.id) }
        await #expect(throws: FriendsError.invalidEmail(.shape)) { try await world.friends.add(.email("zed"), by: ada.id) }
        let unknown = try FriendCode(validCode(different: [ada.friendCode, bob.friendCode]))
        await #expect(throws: FriendsError.unknownFriendCode(unknown)) { try await world.friends.add(.friendCode(unknown.description), by: ada.id) }
        await #expect {
            try await world.friends.add(.friendCode("K7QX"), by: ada.id)
        } throws: { ($0 as? FriendsError).map { if case .invalidFriendCode = $0 { true } else { false } } ?? false }
        #expect(try await world.friends.friends(of: ada.id).map(\.id) == [bob.id])
    }

    @Test("a contact has a name and maybe an email; refused: an account's email, a contact's email or name taken, a bad name")
    func contacts() async throws {
        let world = World()
        let ada = try await world.account("Ada")
        _ = try await world.account("Bob")
        let sam = try await world.friends.addContact(name: " Sam ", email: nil, by: ada.id)
        #expect(sam.name.value == "Sam" && sam.kind == .contact(email: nil))
        let kim = try await world.friends.addContact(name: "Kim", email: "kim@example.com", by: ada.id)
        await #expect(throws: FriendsError.emailHasAccount("bob@example.com")) { try await world.friends.addContact(name: "Bobby", email: "bob@example.com", by: ada.id) }
        await #expect(throws: FriendsError.contactEmailTaken("KIM@example.com")) { try await world.friends.addContact(name: "Kimberly", email: "KIM@example.com", by: ada.id) }
        await #expect(throws: FriendsError.contactNameTaken(try DisplayName("sam"))) { try await world.friends.addContact(name: "sam", email: nil, by: ada.id) }
        await #expect(throws: FriendsError.invalidName(.empty)) { try await world.friends.addContact(name: "  ", email: nil, by: ada.id) }
        await #expect(throws: FriendsError.invalidName(.invisibleCharacters)) { try await world.friends.addContact(name: "Sam \u{202E}kraP", email: nil, by: ada.id) }
        #expect(try await world.friends.friends(of: ada.id).map(\.id) == [kim.id, sam.id])
        // A contact is a person expenses can name.
        try await world.expense(3_000, paidBy: ada.id, among: [ada.id, sam.id])
        #expect(try await world.expenses.balances(of: ada.id).map(\.amount) == [Money(minorUnits: 1_500, currency: .eur)])
        // Another user's contact list is their own.
        #expect(try await world.friends.friend(sam.id, of: UserID(rawValue: "someone")) == nil)
    }

    @Test("renaming a contact: its owner only, under the name rules, never to another contact's name; the expenses name them anew")
    func renameContact() async throws {
        let world = World()
        let ada = try await world.account("Ada")
        let bob = try await world.account("Bob")
        _ = try await world.friends.befriend(.email("bob@example.com"), by: ada.id)
        let sam = try await world.friends.addContact(name: "Sam", email: "sam@example.com", by: ada.id)
        _ = try await world.friends.addContact(name: "Kim", email: nil, by: ada.id)
        let expense = try await world.expense(3_000, paidBy: ada.id, among: [ada.id, sam.id])

        let renamed = try await world.friends.renameContact(sam.id, to: "  Sam Park ", by: ada.id)
        #expect(renamed == Friend(id: sam.id, name: try DisplayName("Sam Park"), kind: .contact(email: try EmailAddress("sam@example.com"))))
        #expect(try await world.friends.friend(sam.id, of: ada.id) == renamed)
        #expect(try await world.friends.names(of: [sam.id], for: ada.id) == [sam.id: try DisplayName("Sam Park")])
        // The same expense, the same balance: only the name changed.
        #expect(try await world.expenses.expense(expense.id, for: ada.id) == expense)
        #expect(try await world.expenses.balances(of: ada.id).map(\.amount) == [Money(minorUnits: 1_500, currency: .eur)])
        // Its own name again, in another case, is a rename too.
        #expect(try await world.friends.renameContact(sam.id, to: "SAM PARK", by: ada.id).name.value == "SAM PARK")

        await #expect(throws: FriendsError.contactNameTaken(try DisplayName("kim"))) { try await world.friends.renameContact(sam.id, to: "kim", by: ada.id) }
        await #expect(throws: FriendsError.invalidName(.empty)) { try await world.friends.renameContact(sam.id, to: " ", by: ada.id) }
        await #expect(throws: FriendsError.invalidName(.invisibleCharacters)) { try await world.friends.renameContact(sam.id, to: "Sam\u{2066}", by: ada.id) }
        // An account is not a contact, and another user's contact is not theirs to rename.
        await #expect(throws: FriendsError.notAContact) { try await world.friends.renameContact(bob.id, to: "Robert", by: ada.id) }
        await #expect(throws: FriendsError.notAContact) { try await world.friends.renameContact(sam.id, to: "Mine", by: bob.id) }
        #expect(try await world.friends.friend(sam.id, of: ada.id)?.name.value == "SAM PARK")
    }

    @Test("removing is refused with the balances while any is open, in any currency, and allowed once settled")
    func remove() async throws {
        let world = World()
        let ada = try await world.account("Ada")
        let bob = try await world.account("Bob")
        _ = try await world.friends.befriend(.email("bob@example.com"), by: ada.id)
        try await world.expense(1_250, paidBy: ada.id, among: [bob.id], by: ada.id)
        try await world.expense(300, paidBy: bob.id, among: [ada.id], currency: .usd)
        await #expect(throws: FriendsError.notSettled(bob.displayName, [Money(minorUnits: 1_250, currency: .eur), Money(minorUnits: -300, currency: .usd)])) {
            try await world.friends.remove(bob.id, by: ada.id)
        }
        #expect(FriendsError.notSettled(bob.displayName, [Money(minorUnits: 1_250, currency: .eur), Money(minorUnits: -300, currency: .usd)]).message
            == "Settle up with Bob first: Bob owes you 12.50 EUR, you owe Bob 3.00 USD.")
        _ = try await world.expenses.settle(from: bob.id, to: ada.id, amount: Money(minorUnits: 1_250, currency: .eur), day: try Day("2026-11-23"), by: bob.id)
        _ = try await world.expenses.settle(from: ada.id, to: bob.id, amount: Money(minorUnits: 300, currency: .usd), day: try Day("2026-11-23"), by: ada.id)
        try await world.friends.remove(bob.id, by: ada.id)
        #expect(try await world.friends.friends(of: ada.id).isEmpty)
        #expect(try await world.friends.friends(of: bob.id).isEmpty)
        await #expect(throws: FriendsError.notAFriend) { try await world.friends.remove(bob.id, by: ada.id) }
    }

    @Test("linking a contact to an account moves their expenses and balances to it, makes a friendship, and ends the contact")
    func link() async throws {
        let world = World()
        let ada = try await world.account("Ada")
        let bob = try await world.account("Bob")
        let dee = try await world.account("Dee")
        try await world.befriend(ada, bob)
        try await world.befriend(ada, dee)
        let sam = try await world.friends.addContact(name: "Sam", email: nil, by: ada.id)
        try await world.expense(3_000, paidBy: ada.id, among: [ada.id, sam.id, bob.id])
        try await world.expense(900, paidBy: dee.id, among: [ada.id, dee.id])
        // Refused, and nothing changes: Bob and Sam are in one expense together.
        await #expect(throws: FriendsError.cannotLink("They are in an expense or a payment together, so they cannot be one person.")) {
            try await world.friends.link(sam.id, to: .email("bob@example.com"), by: ada.id)
        }
        #expect(Set(try await world.friends.friends(of: ada.id).map(\.id)) == [bob.id, dee.id, sam.id])
        // Before linking, who the link would go to, with nothing written; only the owner may ask.
        #expect(try await world.friends.linkTarget(sam.id, to: .email("DEE@example.com"), by: ada.id).id == dee.id)
        await #expect(throws: FriendsError.notAContact) { try await world.friends.linkTarget(sam.id, to: .email("dee@example.com"), by: bob.id) }
        await #expect(throws: FriendsError.unknownEmail("zed@example.com")) {
            try await world.friends.linkTarget(sam.id, to: .email("zed@example.com"), by: ada.id)
        }
        await #expect(throws: FriendsError.cannotLink("A contact cannot be linked to your own account.")) {
            try await world.friends.linkTarget(sam.id, to: .email("ada@example.com"), by: ada.id)
        }
        #expect(Set(try await world.friends.friends(of: ada.id).map(\.id)) == [bob.id, dee.id, sam.id])
        // Linked to Dee: Sam's 10.00 and Dee's 4.50 with Ada become Dee's 5.50 the other way.
        let linked = try await world.linked(sam.id, to: .friendCode(dee.friendCode.description), by: ada.id)
        #expect(linked.id == dee.id)
        #expect(Set(try await world.friends.friends(of: ada.id).map(\.id)) == [bob.id, dee.id])
        #expect(try await world.friends.friends(of: dee.id).map(\.id) == [ada.id])
        #expect(try await world.expenses.balances(of: dee.id) == [
            Balance(other: ada.id, amount: Money(minorUnits: -550, currency: .eur)),
            Balance(other: bob.id, amount: Money(minorUnits: 0, currency: .eur)),
        ].filter { $0.amount.minorUnits != 0 })
        let dinner = try await world.expenses.expenses(of: dee.id, page: PageRequest()).first { $0.amount.minorUnits == 3_000 }
        #expect(dinner?.split.parts.map(\.user) == [ada.id, dee.id, bob.id])
        #expect(try await world.friends.friends(among: [sam.id, dee.id], of: ada.id) == [dee.id])
        await #expect(throws: FriendsError.notAContact) { try await world.friends.link(sam.id, to: .email("dee@example.com"), by: ada.id) }
    }

    @Test("an expense a linked contact paid in, deleted or edited afterwards, moves back exactly what it moved; the recount agrees")
    func changeAfterLink() async throws {
        for change in ["delete", "edit"] {
            let world = World()
            let ola = try await world.account("Ola")
            let (abe, dan, dot, xia) = (try await world.account("Abe"), try await world.account("Dan"), try await world.account("Dot"), try await world.account("Xia"))
            for friend in [abe, dan, dot] { try await world.befriend(ola, friend) }
            let cas = try await world.friends.addContact(name: "Cas", email: nil, by: ola.id)
            let money = { (units: Int64) in Money(minorUnits: units, currency: .eur) }
            // Abe paid 10.00 and Cas 5.00; Ola's part is nothing, Dan's 5.00, Dot's 10.00.
            let trip = try await world.expenses.add(ExpenseDraft(
                description: "Trip", amount: money(1_500), day: try Day("2026-11-22"), category: .travel,
                payers: [Payer(user: abe.id, amount: money(1_000)), Payer(user: cas.id, amount: money(500))],
                participants: [ola.id, dan.id, dot.id], rule: .exact([ola.id: money(0), dan.id: money(500), dot.id: money(1_000)])
            ), by: ola.id)
            _ = try await world.linked(cas.id, to: .email("xia@example.com"), by: ola.id)
            // Debts in the order of the parts, each filled from the payers in their order.
            #expect(try await world.expenses.balances(of: dot.id) == [Balance(other: abe.id, amount: money(-500)), Balance(other: xia.id, amount: money(-500))].sorted { $0.other.rawValue < $1.other.rawValue })
            #expect(try await world.expenses.balances(of: dan.id) == [Balance(other: abe.id, amount: money(-500))])
            #expect(try await world.expenses.expense(trip.id, for: ola.id)?.payers.map(\.user) == [abe.id, xia.id])
            if change == "delete" {
                try await world.expenses.delete(trip, by: ola.id)
            } else {
                _ = try await world.expenses.edit(trip, to: ExpenseDraft(
                    description: "Trip", amount: money(1_500), day: try Day("2026-11-22"), category: .travel,
                    payers: [Payer(user: ola.id, amount: money(1_500))], participants: [ola.id], rule: .equal
                ), by: ola.id)
            }
            for person in [ola, abe, dan, dot, xia] {
                #expect(try await world.expenses.balances(of: person.id) == [], "\(change): \(person.displayName)")
            }
            let check = try await world.services.verifier.verify()
            #expect(check.isSound, "\(change): \(check.summary)")
            #expect(check.balances == 0)
        }
    }

    @Test("an expense edited from the contact to the account (its activity names both) does not stop the link")
    func linkAfterSwap() async throws {
        let world = World()
        let ada = try await world.account("Ada")
        let dee = try await world.account("Dee")
        try await world.befriend(ada, dee)
        let sam = try await world.friends.addContact(name: "Sam", email: nil, by: ada.id)
        let lunch = try await world.expense(1_000, paidBy: ada.id, among: [ada.id, sam.id])
        _ = try await world.expenses.edit(lunch, to: ExpenseDraft(
            description: "Lunch", amount: lunch.amount, day: lunch.day, category: lunch.category,
            payers: lunch.payers, participants: [ada.id, dee.id], rule: .equal
        ), by: ada.id)
        try await world.expense(400, paidBy: ada.id, among: [ada.id, sam.id])
        #expect(try await world.linked(sam.id, to: .email("dee@example.com"), by: ada.id).id == dee.id)
        #expect(try await world.expenses.balances(of: dee.id) == [Balance(other: ada.id, amount: Money(minorUnits: -700, currency: .eur))])
        // The edit named both: it is one line for Dee, as are the two adds.
        #expect(try await world.expenses.activity(of: dee.id, limit: 10).map(\.kind) == [.added, .edited, .added])
    }

    @Test("a deleted expense moves with the link and is restored as the account's; one the two were both in does not stop it and goes")
    func linkDeleted() async throws {
        let world = World()
        let ada = try await world.account("Ada")
        let dee = try await world.account("Dee")
        let sam = try await world.friends.addContact(name: "Sam", email: nil, by: ada.id)
        let taxi = try await world.expense(1_000, paidBy: ada.id, among: [ada.id, sam.id])
        try await world.expenses.delete(taxi, by: ada.id)
        #expect(try await world.linked(sam.id, to: .email("dee@example.com"), by: ada.id).id == dee.id)
        let restored = try await world.expenses.restore(taxi.id, by: dee.id)
        #expect(restored.split.parts.map(\.user) == [ada.id, dee.id])
        #expect(try await world.expenses.balances(of: dee.id) == [Balance(other: ada.id, amount: Money(minorUnits: -500, currency: .eur))])

        let kit = try await world.friends.addContact(name: "Kit", email: nil, by: ada.id)
        let both = try await world.expense(600, paidBy: ada.id, among: [ada.id, kit.id, dee.id])
        try await world.expenses.delete(both, by: ada.id)
        #expect(try await world.linked(kit.id, to: .email("dee@example.com"), by: ada.id).id == dee.id)
        // Restored, it would have Dee in it twice: it is gone.
        await #expect(throws: ExpensesError.notFound(both.id)) { _ = try await world.expenses.restore(both.id, by: ada.id) }
        #expect(try await world.expenses.deletedExpenses(of: ada.id, page: PageRequest()).isEmpty)
    }

    @Test("the people a user may name: their friends and their own contacts, not a former friend, a removed contact or anyone else's")
    func whomAUserMayName() async throws {
        let world = World()
        let ada = try await world.account("Ada")
        let bob = try await world.account("Bob")
        let cy = try await world.account("Cy")
        let dee = try await world.account("Dee")
        try await world.befriend(ada, bob)
        try await world.befriend(dee, ada)
        try await world.friends.remove(dee.id, by: ada.id)
        try await world.befriend(bob, cy)
        let sam = try await world.friends.addContact(name: "Sam", email: nil, by: ada.id)
        let kit = try await world.friends.addContact(name: "Kit", email: nil, by: ada.id)
        try await world.friends.remove(kit.id, by: ada.id)
        let bobsContact = try await world.friends.addContact(name: "Lou", email: nil, by: bob.id)
        let everyone: Set<UserID> = [ada.id, bob.id, cy.id, dee.id, sam.id, kit.id, bobsContact.id, UserID(rawValue: "nobody")]
        #expect(try await world.friends.friends(among: everyone, of: ada.id) == [bob.id, sam.id])
        #expect(try await world.friends.friends(among: everyone, of: bob.id) == [ada.id, cy.id, bobsContact.id])
        #expect(try await world.friends.friends(among: everyone, of: dee.id) == [])
        #expect(try await world.friends.friends(among: [], of: ada.id) == [])
        // So the ledger refuses Ada's expense with Cy (Bob's friend, not hers) or Dee, naming them.
        await #expect(throws: ExpensesError.unknownPeople([cy.id, dee.id].sorted { $0.rawValue < $1.rawValue })) {
            try await world.expense(900, paidBy: ada.id, among: [ada.id, bob.id, cy.id, dee.id])
        }
        #expect(try await world.expenses.balances(of: ada.id).isEmpty)
        // The same answer decides whose email and friend code Ada may see: hers and Bob's. Names
        // are what a shared expense shows, so they go to anyone.
        let accounts = try await world.services.accounts.users(everyone, for: ada.id)
        #expect(Set(accounts.map(\.id)) == [ada.id, bob.id])
        #expect(Set(try await world.services.accounts.users([ada.id, cy.id, dee.id], for: bob.id).map(\.id)) == [ada.id, cy.id])
        #expect(try await world.friends.names(of: [cy.id, dee.id], for: ada.id) == [cy.id: cy.displayName, dee.id: dee.displayName])
    }

    @Test("claiming: signing up with a contact's email links every contact with it")
    func claim() async throws {
        let world = World()
        let ada = try await world.account("Ada")
        let bob = try await world.account("Bob")
        let kim = try await world.friends.addContact(name: "Kim", email: "kim@example.com", by: ada.id)
        let bobsKim = try await world.friends.addContact(name: "Kimberly", email: "kim@example.com", by: bob.id)
        try await world.expense(2_000, paidBy: ada.id, among: [ada.id, kim.id])
        let real = try await world.account("Kim")
        // Claiming asks each owner; nothing moves until they confirm.
        #expect(Set(try await world.friends.claimContacts(for: real.id)) == [ada.id, bob.id])
        #expect(try await world.friends.claimContacts(for: real.id).isEmpty, "asked once")
        #expect(try await world.expenses.balances(of: real.id).isEmpty)
        #expect(try await world.expenses.expenses(of: real.id, page: PageRequest()).isEmpty)
        #expect(try await world.friends.friends(of: ada.id).map(\.id) == [kim.id])
        let asked = try await world.friends.requests(of: ada.id).incoming
        #expect(asked.map(\.link) == [.recipientsContact(try DisplayName("Kim"), email: "kim@example.com")])
        #expect(try await world.friends.requests(of: real.id).outgoing.count == 2)
        // Ada confirms: her contact is Kim's account, the dinner with it.
        _ = try await world.friends.accept(real.id, by: ada.id)
        #expect(try await world.friends.friends(of: ada.id).map(\.id) == [real.id])
        #expect(try await world.expenses.balances(of: real.id) == [Balance(other: ada.id, amount: Money(minorUnits: -1_000, currency: .eur))])
        #expect(try await world.expenses.expenses(of: real.id, page: PageRequest()).count == 1)
        // Bob declines: his contact stays his, and is not claimed again.
        try await world.friends.dropRequest(with: real.id, by: bob.id)
        #expect(try await world.friends.friend(bobsKim.id, of: bob.id)?.isContact == true)
        #expect(try await world.friends.claimContacts(for: real.id).isEmpty, "a declined claim is not asked again")
        #expect(try await world.friends.requests(of: bob.id) == FriendRequests())
    }
}

/// A friend code that is none of `taken`.
private func validCode(different taken: [FriendCode]) -> String {
    var random = SeededRandomSource(seed: 77)
    while true {
        let code = FriendCode.random(using: random)
        if !taken.contains(code) { return code.description }
        random = SeededRandomSource(seed: 78)
    }
}

@Suite("Friends: properties")
struct FriendsPropertyTests {
    /// A small random generator, seeded by the property's input.
    private struct Steps {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    @Test("friendship is symmetric after any sequence of adds and removes")
    func symmetric() async throws {
        await propertyCheck(count: 15, input: Gen.int(in: 0...1_000_000)) { seed in
            let world = World()
            var users: [User] = []
            for name in ["Ann", "Ben", "Cat", "Dan", "Eve"] { users.append(try! await world.account(name)) }
            var steps = Steps(state: UInt64(seed))
            for _ in 0..<25 {
                let (a, b) = (users[steps.next(5)], users[steps.next(5)])
                if steps.next(3) == 0 {
                    _ = try? await world.friends.remove(b.id, by: a.id)
                } else {
                    _ = try? await world.friends.befriend(.friendCode(b.friendCode.description), by: a.id)
                }
            }
            for a in users {
                let friends = Set(try! await world.friends.friends(of: a.id).map(\.id))
                #expect(!friends.contains(a.id))
                for b in users where b.id != a.id {
                    let theirs = Set(try! await world.friends.friends(of: b.id).map(\.id))
                    #expect(friends.contains(b.id) == theirs.contains(a.id))
                }
            }
        }
    }

    @Test("removing is refused exactly when some balance with the friend is not zero")
    func removeWhenSettled() async throws {
        await propertyCheck(count: 20, input: Gen.int(in: 0...1_000_000)) { seed in
            let world = World()
            let ann = try! await world.account("Ann")
            let ben = try! await world.account("Ben")
            _ = try! await world.friends.befriend(.email("ben@example.com"), by: ann.id)
            var steps = Steps(state: UInt64(seed))
            for _ in 0..<steps.next(4) {
                let currency = [Currency.eur, .usd, .jpy][steps.next(3)]
                let amount = Int64(1 + steps.next(5)) * 100
                let (payer, other) = steps.next(2) == 0 ? (ann.id, ben.id) : (ben.id, ann.id)
                if steps.next(2) == 0 {
                    try! await world.expense(amount, paidBy: payer, among: [other], by: payer, currency: currency)
                } else {
                    _ = try! await world.expenses.settle(
                        from: payer, to: other, amount: Money(minorUnits: amount, currency: currency), day: try! Day("2026-11-22"), by: payer
                    )
                }
            }
            let open = try! await world.expenses.balances(of: ann.id).filter { $0.amount.minorUnits != 0 }
            do {
                try await world.friends.remove(ben.id, by: ann.id)
                #expect(open.isEmpty)
            } catch {
                #expect(error as? FriendsError == .notSettled(ben.displayName, open.map(\.amount)))
            }
        }
    }

    @Test("linking a contact to an account leaves every balance (the two counted as one person) and every expense's parts unchanged")
    func linkKeepsTheLedger() async throws {
        await propertyCheck(count: 15, input: Gen.int(in: 0...1_000_000)) { seed in
            let world = World()
            let ann = try! await world.account("Ann")
            let ben = try! await world.account("Ben")
            let dee = try! await world.account("Dee")
            try! await world.befriend(ann, ben)
            try! await world.befriend(ann, dee)
            let sam = try! await world.friends.addContact(name: "Sam", email: nil, by: ann.id)
            var steps = Steps(state: UInt64(seed))
            // Sam never shares an expense with Dee: the two are to become one person.
            for _ in 0..<(1 + steps.next(8)) {
                // Ann adds each one and is in it; anyone in it may have paid.
                let people = [ann.id] + [ben.id, steps.next(2) == 0 ? sam.id : dee.id].filter { _ in steps.next(4) != 0 }
                let payer = people[steps.next(people.count)]
                try! await world.expense(Int64(1 + steps.next(10_000)), paidBy: payer, among: people, by: ann.id, currency: steps.next(3) == 0 ? .usd : .eur)
            }
            func net(_ person: UserID) async -> [String: Int64] {
                var sums: [String: Int64] = [:]
                for balance in try! await world.expenses.balances(of: person) where balance.other != sam.id && balance.other != dee.id {
                    sums["\(balance.other)/\(balance.amount.currency.code)", default: 0] += balance.amount.minorUnits
                }
                return sums
            }
            func merged(_ a: [String: Int64], _ b: [String: Int64]) -> [String: Int64] { a.merging(b, uniquingKeysWith: +).filter { $0.value != 0 } }
            let before = merged(await net(sam.id), await net(dee.id))
            let others = (await net(ann.id), await net(ben.id))
            let expensesBefore = try! await world.expenses.expenses(of: ann.id, page: PageRequest(limit: 1_000))

            _ = try! await world.linked(sam.id, to: .email("dee@example.com"), by: ann.id)

            #expect(merged(await net(dee.id), [:]) == before)
            #expect(try! await world.expenses.balances(of: sam.id).isEmpty)
            // Ann's and Ben's balances with everyone but Sam and Dee are as they were.
            let (annAfter, benAfter) = (await net(ann.id), await net(ben.id))
            #expect(annAfter == others.0 && benAfter == others.1)
            let after = try! await world.expenses.expenses(of: ann.id, page: PageRequest(limit: 1_000))
            #expect(after.count == expensesBefore.count)
            for (old, new) in zip(expensesBefore, after) {
                #expect(old.id == new.id)
                #expect(old.split.parts.map { ($0.user == sam.id ? dee.id : $0.user, $0.amount) }.elementsEqual(new.split.parts.map { ($0.user, $0.amount) }) { $0 == $1 })
                #expect(old.payers.map { $0.user == sam.id ? Payer(user: dee.id, amount: $0.amount) : $0 } == new.payers)
            }
        }
    }
}
