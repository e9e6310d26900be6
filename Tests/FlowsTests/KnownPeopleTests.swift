import Accounts
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
        let accounts = CountingAccounts(existing: [ann, bob])
        let people = AccountsPeople(accounts: accounts)
        #expect(try await people.unknown(among: [ann, dee]) == [dee])
        #expect(accounts.asked == [[ann, dee]])
        #expect(try await people.unknown(among: [ann, bob, dee]) == [dee])
        #expect(accounts.asked == [[ann, dee], [bob]])
        #expect(try await people.unknown(among: [ann, bob, dee]) == [dee])
        #expect(accounts.asked.count == 2)
    }
}

/// Accounts that exist for `existing` only, noting every question about who exists; anything
/// else is unavailable.
private final class CountingAccounts: AccountsService {
    private let existingAccounts: Set<UserID>
    private let questions = Mutex<[Set<UserID>]>([])

    init(existing: Set<UserID>) {
        existingAccounts = existing
    }

    var asked: [Set<UserID>] { questions.withLock { $0 } }

    func existing(among people: Set<UserID>) async throws(AccountsError) -> Set<UserID> {
        questions.withLock { $0.append(people) }
        return people.intersection(existingAccounts)
    }

    func signUp(email: String, displayName: String, password: String) async throws(AccountsError) -> User { throw .storeUnavailable("not here") }
    func signIn(email: String, password: String) async throws(AccountsError) -> User { throw .storeUnavailable("not here") }
    func signOut() async throws(AccountsError) { throw .storeUnavailable("not here") }
    func storedSession() async throws(AccountsError) -> StoredSession { throw .storeUnavailable("not here") }
    func users(_ people: Set<UserID>, for user: UserID) async throws(AccountsError) -> [User] { throw .storeUnavailable("not here") }
    func user(withFriendCode code: FriendCode, for user: UserID) async throws(AccountsError) -> User? { throw .storeUnavailable("not here") }
    func user(withEmail email: String, for user: UserID) async throws(AccountsError) -> User? { throw .storeUnavailable("not here") }
    func changeDisplayName(to name: String, of user: UserID) async throws(AccountsError) -> User { throw .storeUnavailable("not here") }
    func changeEmail(to email: String, password: String, of user: UserID) async throws(AccountsError) -> User { throw .storeUnavailable("not here") }
    func changePassword(from current: String, to new: String, of user: UserID) async throws(AccountsError) { throw .storeUnavailable("not here") }
    func avatar(of person: UserID, for user: UserID) async throws(AccountsError) -> Avatar { throw .storeUnavailable("not here") }
    func avatar(of user: UserID) async throws(AccountsError) -> Avatar { throw .storeUnavailable("not here") }
    func changeAvatar(to avatar: Avatar, of user: UserID) async throws(AccountsError) { throw .storeUnavailable("not here") }
}
