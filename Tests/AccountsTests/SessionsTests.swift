import Accounts
import AccountsData
import AccountsDataSQLite
import AccountsLive
import Foundation
import Primitives
import Testing

/// A user's sessions: listed with what signed in and when, ended one at a time or all but this
/// one, never older than 90 days, and ended elsewhere by a change of email.
struct SessionsTests {
    /// Ada signed up on the fixture's service and in again on a laptop: two sessions.
    private func adaOnTwoMachines() async throws -> (AccountsFixture, User, laptop: LiveAccountsService, laptopTokens: InMemorySessionTokenStore) {
        let fixture = AccountsFixture()
        let ada = try await fixture.service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        fixture.clock.advance(days: 1)
        let laptopTokens = InMemorySessionTokenStore()
        let laptop = fixture.process(tokens: laptopTokens, seed: 7)
        _ = try await laptop.signIn(email: "ada@example.com", password: "correct horse")
        return (fixture, ada, laptop, laptopTokens)
    }

    @Test("the list has this session first, then the others by last use, with what signed in and when")
    func listed() async throws {
        let (fixture, ada, laptop, _) = try await adaOnTwoMachines()
        let sessions = try await fixture.service.sessions(of: ada.id)
        #expect(sessions.map(\.isCurrent) == [true, false])
        #expect(sessions.allSatisfy { $0.client == "flows on this machine" && SessionSummary.isID($0.id) })
        #expect(sessions[1].createdAt.timeIntervalSince(sessions[0].createdAt) == 24 * 60 * 60, "the laptop signed in a day later")
        let fromLaptop = try await laptop.sessions(of: ada.id)
        #expect(fromLaptop.map(\.id) == [sessions[1].id, sessions[0].id], "each service sees its own first")
        // Nobody else's sessions are listed.
        let bob = try await fixture.process(tokens: InMemorySessionTokenStore(), seed: 9)
            .signUp(email: "bob@example.com", displayName: "Bob", password: "correct horse")
        #expect(try await fixture.service.sessions(of: bob.id).allSatisfy { !$0.isCurrent })
        #expect(try await fixture.service.sessions(of: ada.id).count == 2)
    }

    @Test("ending another session signs that machine out; this one, someone else's or an ended one cannot be ended that way twice")
    func endOne() async throws {
        let (fixture, ada, laptop, _) = try await adaOnTwoMachines()
        let other = try #require(try await fixture.service.sessions(of: ada.id).first { !$0.isCurrent })
        try await fixture.service.endSession(other.id, of: ada.id)
        #expect(try await laptop.storedSession() == .signedOut)
        await #expect(throws: AccountsError.noSuchSession) { try await fixture.service.endSession(other.id, of: ada.id) }
        await #expect(throws: AccountsError.noSuchSession) { try await fixture.service.endSession("not an id", of: ada.id) }
        // Bob cannot end Ada's session by its id.
        let bobService = fixture.process(tokens: InMemorySessionTokenStore(), seed: 9)
        let bob = try await bobService.signUp(email: "bob@example.com", displayName: "Bob", password: "correct horse")
        let mine = try #require(try await fixture.service.sessions(of: ada.id).first)
        await #expect(throws: AccountsError.noSuchSession) { try await bobService.endSession(mine.id, of: bob.id) }
        #expect(try await fixture.service.storedSession() == .signedIn(ada))
        // Ending this one is signing out.
        try await fixture.service.endSession(mine.id, of: ada.id)
        #expect(try await fixture.service.storedSession() == .signedOut)
        #expect(try fixture.count("session") == 1, "only Bob's is left")
    }

    @Test("ending every other session keeps this one and says how many ended")
    func endOthers() async throws {
        let (fixture, ada, laptop, _) = try await adaOnTwoMachines()
        let phone = fixture.process(tokens: InMemorySessionTokenStore(), seed: 8)
        _ = try await phone.signIn(email: "ada@example.com", password: "correct horse")
        #expect(try await fixture.service.endOtherSessions(of: ada.id) == 2)
        #expect(try await laptop.storedSession() == .signedOut)
        #expect(try await phone.storedSession() == .signedOut)
        #expect(try await fixture.service.storedSession() == .signedIn(ada))
        #expect(try await fixture.service.endOtherSessions(of: ada.id) == 0)
    }

    @Test("a session lasts 90 days at most, however often it is used")
    func lifetime() async throws {
        let fixture = AccountsFixture()
        let ada = try await fixture.service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        for _ in 1...4 {
            fixture.clock.advance(days: 22)
            #expect(try await fixture.service.storedSession() == .signedIn(ada))
        }
        fixture.clock.advance(days: 2.5)  // 90.5 days after signing up, 2.5 days after the last use
        #expect(try await fixture.service.storedSession() == .expired)
        #expect(try fixture.count("session") == 0)
        #expect(StoredSession.expiredNotice.contains("90 days"))
    }

    @Test("changing the email ends every other session; this one stays")
    func emailChangeEndsOthers() async throws {
        let (fixture, ada, laptop, _) = try await adaOnTwoMachines()
        let changed = try await fixture.service.changeEmail(to: "ada@example.org", password: "correct horse", of: ada.id)
        #expect(try await laptop.storedSession() == .signedOut)
        #expect(try await fixture.service.storedSession() == .signedIn(changed))
    }

    @Test("what signed in is kept printable and at most 200 characters")
    func clientDescription() async throws {
        let fixture = AccountsFixture()
        let service = LiveAccountsService(
            store: SQLiteAccountsStore(database: fixture.database), tokens: InMemorySessionTokenStore(), hasher: PasswordHasher(cost: 4),
            random: SeededRandomSource(seed: 5), now: { fixture.clock.now }, visibility: OwnAccountOnly(),
            client: { "curl/8\u{202E}\n\t" + String(repeating: "x", count: 300) }
        )
        let ada = try await service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        let client = try #require(try await service.sessions(of: ada.id).first?.client)
        #expect(client.hasPrefix("curl/8x"))
        #expect(client.count == 200)
    }
}
