import Accounts
import AccountsData
import AccountsLive
import Primitives
import Testing

@Suite("Account settings: name, email and password, each by the acting user")
struct AccountSettingsTests {
    let fixture = AccountsFixture()

    private func ada() async throws -> User {
        try await fixture.service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
    }

    @Test("a new display name follows the sign-up rules; a refused one changes nothing")
    func displayName() async throws {
        let user = try await ada()
        let renamed = try await fixture.service.changeDisplayName(to: "  Ada Lovelace ", of: user.id)
        #expect(renamed.displayName.value == "Ada Lovelace")
        #expect(renamed.friendCode == user.friendCode && renamed.email == user.email)
        #expect(try await fixture.service.currentUser() == renamed)
        for bad in ["", "   ", String(repeating: "x", count: 51), "Ada\u{7}"] {
            await #expect(throws: AccountsError.self) { try await fixture.service.changeDisplayName(to: bad, of: user.id) }
        }
        #expect(try await fixture.service.currentUser()?.displayName.value == "Ada Lovelace")
        await #expect(throws: AccountsError.noSuchAccount) {
            try await fixture.service.changeDisplayName(to: "Bob", of: UserID(rawValue: "nobody"))
        }
    }

    @Test("a new email needs the current password, is checked, and is unique after normalisation")
    func email() async throws {
        let user = try await ada()
        _ = try await fixture.process(tokens: InMemorySessionTokenStore(), seed: 5)
            .signUp(email: "bob@example.com", displayName: "Bob", password: "another password")
        await #expect(throws: AccountsError.wrongPassword) {
            try await fixture.service.changeEmail(to: "ada@lovelace.org", password: "wrong horse", of: user.id)
        }
        await #expect(throws: AccountsError.emailTaken) {
            try await fixture.service.changeEmail(to: " BOB@example.com ", password: "correct horse", of: user.id)
        }
        await #expect(throws: AccountsError.self) {
            try await fixture.service.changeEmail(to: "not an email", password: "correct horse", of: user.id)
        }
        #expect(try await fixture.service.currentUser()?.email == user.email)

        let moved = try await fixture.service.changeEmail(to: "Ada@Lovelace.org", password: "correct horse", of: user.id)
        #expect(moved.email.value == "Ada@Lovelace.org")
        try await fixture.service.signOut()
        _ = try await fixture.service.signIn(email: "ada@lovelace.org", password: "correct horse")
        await #expect(throws: AccountsError.wrongEmailOrPassword) {
            try await fixture.service.signIn(email: "ada@example.com", password: "correct horse")
        }
        // The same address in another case is a change of how it is written, not a conflict.
        let recased = try await fixture.service.changeEmail(to: "ada@lovelace.org", password: "correct horse", of: user.id)
        #expect(recased.email.value == "ada@lovelace.org")
    }

    @Test("a new password needs the current one, follows the rules, differs from it, and ends every other session")
    func password() async throws {
        let user = try await ada()
        let laptop = fixture.process(tokens: InMemorySessionTokenStore(), seed: 6)
        _ = try await laptop.signIn(email: "ada@example.com", password: "correct horse")
        #expect(try fixture.count("session") == 2)

        await #expect(throws: AccountsError.wrongPassword) {
            try await fixture.service.changePassword(from: "wrong horse", to: "battery staple", of: user.id)
        }
        await #expect(throws: AccountsError.samePassword) {
            try await fixture.service.changePassword(from: "correct horse", to: "correct horse", of: user.id)
        }
        await #expect(throws: AccountsError.invalidPassword(.tooShort)) {
            try await fixture.service.changePassword(from: "correct horse", to: "short", of: user.id)
        }
        #expect(try fixture.count("session") == 2)

        try await fixture.service.changePassword(from: "correct horse", to: "battery staple", of: user.id)
        // This store's session stays; the laptop's ended.
        #expect(try fixture.count("session") == 1)
        #expect(try await fixture.service.currentUser() == user)
        #expect(try await laptop.currentUser() == nil)
        await #expect(throws: AccountsError.wrongEmailOrPassword) {
            try await laptop.signIn(email: "ada@example.com", password: "correct horse")
        }
        _ = try await laptop.signIn(email: "ada@example.com", password: "battery staple")
    }

    @Test("an avatar is none until chosen, then initials on a colour, a picture kept whole, or none again")
    func avatar() async throws {
        let user = try await ada()
        #expect(try await fixture.service.avatar(of: user.id) == .none)
        try await fixture.service.changeAvatar(to: .initials(.teal), of: user.id)
        #expect(try await fixture.service.avatar(of: user.id) == .initials(.teal))
        // The header of a 3 x 2 PNG (its CRC from Python's zlib): all a picture needs to be taken.
        let bytes: [UInt8] = [
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x03,
            0x00, 0x00, 0x00, 0x02, 0x08, 0x02, 0x00, 0x00, 0x00, 0x12, 0x16, 0xF1, 0x4D,
        ]
        let picture = try AvatarImage(bytes: bytes)
        try await fixture.service.changeAvatar(to: .image(picture), of: user.id)
        #expect(try await fixture.service.avatar(of: user.id) == .image(picture))
        #expect(try fixture.count("avatar") == 1)
        try await fixture.service.changeAvatar(to: .none, of: user.id)
        #expect(try await fixture.service.avatar(of: user.id) == .none)
        #expect(try fixture.count("avatar") == 0)
        await #expect(throws: AccountsError.noSuchAccount) {
            try await fixture.service.changeAvatar(to: .initials(.red), of: UserID(rawValue: "nobody"))
        }
    }

    @Test("a picture's stand-in colour is the same for the same user every time, and users spread over the whole palette")
    func standInColour() {
        let ids = (0..<400).map { UserID(rawValue: "user-\($0)") }
        #expect(ids.map(AvatarColour.standIn(for:)) == ids.map(AvatarColour.standIn(for:)))
        #expect(Set(ids.map(AvatarColour.standIn(for:))) == Set(AvatarColour.allCases))
        // Not Swift's hash, seeded anew in every process: FNV-1a of "ada" is green on any run.
        #expect(AvatarColour.standIn(for: UserID(rawValue: "ada")) == .green)
    }

    @Test("an avatar in words, as every screen and result names it")
    func summary() throws {
        #expect(Avatar.none.summary == "none")
        #expect(Avatar.initials(.teal).summary == "initials on teal")
        let header: [UInt8] = [
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x03,
            0x00, 0x00, 0x00, 0x02, 0x08, 0x02, 0x00, 0x00, 0x00, 0x12, 0x16, 0xF1, 0x4D,
        ]
        #expect(Avatar.image(try AvatarImage(bytes: header)).summary == "a 3 x 2 PNG picture")
    }

    @Test("initials are the first letters of the first and last words, in upper case")
    func initials() throws {
        #expect(try DisplayName("Ada Lovelace").initials == "AL")
        #expect(try DisplayName("ada").initials == "A")
        #expect(try DisplayName("Jean-Luc de la Tour").initials == "JT")
        #expect(try DisplayName("émile zola").initials == "ÉZ")
    }
}
