import Foundation
import Primitives

/// Sign up, sign in, sign out and the current session.
///
/// Every method that writes does so in one transaction: it either happens completely or not at
/// all. Implementations re-check every rule, whatever the caller checked before.
public protocol AccountsService: Sendable {
    /// Creates an account and signs it in.
    func signUp(email: String, displayName: String, password: String) async throws(AccountsError) -> User

    /// Signs in with an email and a password. Any mismatch is ``AccountsError/wrongEmailOrPassword``.
    func signIn(email: String, password: String) async throws(AccountsError) -> User

    /// Ends the current session, if there is one: the one this service signed in or found,
    /// even when the kept token is gone.
    func signOut() async throws(AccountsError)

    /// The kept session: whose it is, none, or one that went unused for longer than
    /// ``SessionPolicy/idleLimit`` and has just been ended. Finding it counts as using it.
    func storedSession() async throws(AccountsError) -> StoredSession

    /// The ones among `people` that have an account. (User ids are random: knowing one is not
    /// learning anything about who it is.)
    func existing(among people: Set<UserID>) async throws(AccountsError) -> Set<UserID>

    // MARK: - Finding people, for `user` to add or show as friends

    /// The accounts among `people` (name, email, friend code) that `user` may see in full: their
    /// own, and those their ``AccountVisibility`` shows them (in the app, their friends'). Ids
    /// of anyone else, or without an account, are left out.
    /// - Replica: read
    func users(_ people: Set<UserID>, for user: UserID) async throws(AccountsError) -> [User]

    /// The account a friend code names, as anyone may see it (id and name), or nil.
    func profile(withFriendCode code: FriendCode, for user: UserID) async throws(AccountsError) -> PublicProfile?

    /// The account an email names (after normalisation, in any case), as anyone may see it (id
    /// and name, not the email back), or nil.
    func profile(withEmail email: String, for user: UserID) async throws(AccountsError) -> PublicProfile?

    /// Another account's avatar, shown to `user` beside the name ``users(_:for:)`` gives;
    /// ``Avatar/none`` for someone without one or without an account.
    /// - Contract: getUserAvatar
    /// - Replica: read
    func avatar(of person: UserID, for user: UserID) async throws(AccountsError) -> Avatar

    // MARK: - Account settings, each by the acting user on their own account

    /// Changes the user's display name, under the sign-up rules for names.
    /// - Contract: changeDisplayName
    func changeDisplayName(to name: String, of user: UserID) async throws(AccountsError) -> User

    /// Changes the user's email once their current password checks out; the new email must be
    /// valid and unique after normalisation. Every other session of the user ends; this store's
    /// current one stays. Where emails are verified, the new one is not until its code is
    /// entered: a code is sent to it.
    func changeEmail(to email: String, password: String, of user: UserID) async throws(AccountsError) -> User

    /// Changes the user's password once the current one checks out; the new one follows the
    /// sign-up rules and differs from the current one. Every other session of the user ends;
    /// this store's current one stays.
    func changePassword(from current: String, to new: String, of user: UserID) async throws(AccountsError)

    // MARK: - Email verification, by the acting user on their own account

    /// Sends a new code to the user's email, in place of any earlier one. Refused with
    /// ``AccountsError/alreadyVerified`` when there is nothing to prove, with
    /// ``AccountsError/tooManyAttempts(seconds:)`` within ``EmailVerificationPolicy/resendInterval``
    /// of the last, and with ``AccountsError/mailUnavailable(_:)`` when it could not be sent.
    /// - Contract: sendVerificationCode
    func sendVerificationCode(to user: UserID) async throws(AccountsError)

    /// Marks the user's email verified when `code` is the one last sent to it: refused with
    /// ``AccountsError/wrongCode(triesLeft:)``, or ``AccountsError/codeExpired`` once it is
    /// older than ``EmailVerificationPolicy/codeLifetime``, was tried
    /// ``EmailVerificationPolicy/tries`` times, or was sent to an email the user no longer has.
    /// A verified email is answered with the user as they are.
    /// - Contract: verifyEmail
    func verifyEmail(code: String, of user: UserID) async throws(AccountsError) -> User

    // MARK: - Sessions, each by the acting user on their own

    /// The user's sessions: this one first, then the others by last use, newest first.
    func sessions(of user: UserID) async throws(AccountsError) -> [SessionSummary]

    /// Ends one of the user's sessions (ending this one signs out); refused with
    /// ``AccountsError/noSuchSession`` for one that is not theirs or has already ended.
    func endSession(_ id: SessionSummary.ID, of user: UserID) async throws(AccountsError)

    /// Ends every session of the user but this one; how many ended.
    func endOtherSessions(of user: UserID) async throws(AccountsError) -> Int

    /// The user's avatar; ``Avatar/none`` until they choose one.
    /// - Contract: getMyAvatar
    /// - Replica: read
    func avatar(of user: UserID) async throws(AccountsError) -> Avatar

    /// Replaces the user's avatar (a picture is kept whole in the store).
    /// - Contract: changeAvatar
    func changeAvatar(to avatar: Avatar, of user: UserID) async throws(AccountsError)
}

/// Whose email and friend code a user may see besides their own. Accounts cannot see
/// friendships, so the app answers it from the friends area: a user sees their friends'. An id
/// learnt from a shared expense is then no way to find someone's email, or to befriend them.
public protocol AccountVisibility: Sendable {
    /// The ones among `people` (never `user`) whose email and friend code `user` may see.
    func shown(among people: Set<UserID>, to user: UserID) async throws -> Set<UserID>
}

/// The visibility of an app in which no one sees anyone else's account: where no friendships
/// are kept, or in a test of accounts alone.
public struct OwnAccountOnly: AccountVisibility {
    public init() {}

    public func shown(among people: Set<UserID>, to user: UserID) async throws -> Set<UserID> {
        []
    }
}

/// The display names of accounts, anyone's: what an expense shared with someone shows of them,
/// friends or not. (Emails and friend codes go only where ``AccountVisibility`` lets them.)
public protocol AccountNames: Sendable {
    /// The names of the accounts among `people`, as `user` is shown them; ids without an account
    /// are left out.
    func displayNames(of people: Set<UserID>, for user: UserID) async throws(AccountsError) -> [UserID: DisplayName]
}

extension AccountsService {
    /// The user of the stored session, or nil when nobody is signed in (an expired session
    /// included).
    public func currentUser() async throws(AccountsError) -> User? {
        if case .signedIn(let user) = try await storedSession() { user } else { nil }
    }
}

/// What a launch finds of the kept session.
public enum StoredSession: Equatable, Sendable {
    case signedOut
    case signedIn(User)
    /// The session went unused for longer than ``SessionPolicy/idleLimit``, or is older than
    /// ``SessionPolicy/lifetimeLimit``; it has ended.
    case expired

    /// What to tell someone whose session expired.
    public static let expiredNotice =
        "You were signed out: a session ends after \(SessionPolicy.idleDays) days without use, or \(SessionPolicy.lifetimeDays) days in all; sign in again."
}

/// How emails are proved: a code of ``codeLength`` digits, mailed at sign-up, at an email
/// change and on request, good for ``codeLifetime`` seconds and ``tries`` tries.
public enum EmailVerificationPolicy {
    public static let codeLength = 6
    /// Seconds a code is good for: an hour.
    public static let codeLifetime: Double = 60 * 60
    /// Wrong codes allowed before the code ends.
    public static let tries = 5
    /// Seconds between two codes sent on request.
    public static let resendInterval: Double = 60

    /// `text` without spaces and dashes (`123 456`, `123-456`), when it is a code's digits.
    public static func normalisedCode(_ text: String) -> String? {
        let digits = text.filter { $0 != " " && $0 != "-" }
        guard digits.count == codeLength, digits.unicodeScalars.allSatisfy({ (48...57).contains($0.value) }) else { return nil }
        return digits
    }
}

/// What proves an email: the code of ``EmailVerificationPolicy``, sent by mail (or, on one
/// machine trying the server out, written to its log).
public protocol VerificationCodeSender: Sendable {
    /// Sends `code` to `email`, addressed to `name`; throws a reason in words when it could not.
    func send(code: String, to email: EmailAddress, name: DisplayName) async throws
}

/// One of a user's sessions, as their list of sessions shows it.
public struct SessionSummary: Equatable, Sendable, Identifiable {
    /// Names the session to end it: 16 hexadecimal digits, never its token.
    public let id: String
    /// What signed in, in words: `flows on this machine`, or what a server's client said it is.
    public let client: String
    public let createdAt: Date
    public let lastUsedAt: Date
    /// The session this service is signed in with.
    public let isCurrent: Bool

    public init(id: String, client: String, createdAt: Date, lastUsedAt: Date, isCurrent: Bool) {
        self.id = id
        self.client = client
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.isCurrent = isCurrent
    }

    /// Whether `text` has the shape of a session's id.
    public static func isID(_ text: String) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

/// How long sessions last. The CLI keeps one current session per store: signing in ends the
/// previous one.
public enum SessionPolicy {
    /// Days a session may go unused before it ends.
    public static let idleDays = 30
    /// The same, in seconds.
    public static let idleLimit = Double(idleDays) * 24 * 60 * 60
    /// Days a session lasts at most, however often it is used.
    public static let lifetimeDays = 90
    /// The same, in seconds.
    public static let lifetimeLimit = Double(lifetimeDays) * 24 * 60 * 60
    /// The most characters of a client's description kept with a session.
    public static let clientLength = 200
    /// How stale a session's last use may be before finding it records the use again (a
    /// minute, against 30 days: reads stay reads).
    public static let touchInterval: Double = 60
}
