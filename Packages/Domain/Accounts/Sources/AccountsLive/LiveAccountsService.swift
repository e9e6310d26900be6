import Accounts
import AccountsData
import Foundation
import Primitives
import Synchronization

/// The accounts service of the app, on top of an ``AccountsStore`` and a ``SessionTokenStore``.
///
/// Another account's email and friend code are shown only where `visibility` says: see
/// ``AccountVisibility``. Emails are verified when a ``VerificationCodeSender`` is given (a
/// server's); without one every email counts as verified.
public struct LiveAccountsService: AccountsService, AccountNames {
    let store: any AccountsStore
    private let visibility: any AccountVisibility
    private let tokens: any SessionTokenStore
    private let hasher: PasswordHasher
    private let random: any RandomSource
    private let now: @Sendable () -> Date
    /// What signs in, in words, kept with each new session (read when it starts).
    private let client: @Sendable () -> String
    /// Sends the codes that prove emails; nil where emails are not verified.
    private let verification: (any VerificationCodeSender)?
    /// The token of the session this service signed in or found, so signing out ends it even
    /// when the kept file is gone.
    private let current = CurrentSession()

    public init(
        store: any AccountsStore,
        tokens: any SessionTokenStore,
        hasher: PasswordHasher = PasswordHasher(),
        random: any RandomSource = SystemRandomSource(),
        now: @escaping @Sendable () -> Date = Date.init,
        visibility: any AccountVisibility,
        client: @escaping @Sendable () -> String = { "flows on this machine" },
        verification: (any VerificationCodeSender)? = nil
    ) {
        self.client = client
        self.verification = verification
        self.store = store
        self.visibility = visibility
        self.tokens = tokens
        self.hasher = hasher
        self.random = random
        self.now = now
    }

    public func signUp(email: String, displayName: String, password: String) async throws(AccountsError) -> User {
        let address: EmailAddress
        let name: DisplayName
        do throws(EmailAddress.Problem) { address = try EmailAddress(email) } catch { throw .invalidEmail(error) }
        do throws(DisplayName.Problem) { name = try DisplayName(displayName) } catch { throw .invalidDisplayName(error) }
        do throws(PasswordRules.Problem) { try PasswordRules.check(password) } catch { throw .invalidPassword(error) }

        // A taken email is refused before the slow hash: the answer says so anyway, and a server
        // counts each refusal against the address, so asking costs the asker, not the server.
        // (The insert below still refuses one taken meanwhile.)
        let key = address.key
        guard try await storing({ try await store.read { try $0.user(emailKey: key) } }) == nil else { throw .emailTaken }
        let id = UserID.random(using: random)
        let passwordHash = try await hasher.hash(password)
        let createdAt = now().timeIntervalSince1970
        let random = random
        let proof = verification == nil ? nil : VerificationCode.random(using: random)
        let waiting = proof.map {
            EmailVerificationRecord(
                userID: id.rawValue, emailKey: key, codeHash: VerificationCode.hash($0.digits, of: id.rawValue), sentAt: createdAt,
                triesLeft: EmailVerificationPolicy.tries
            )
        }
        let code = try await startSession(for: id.rawValue) { db in
            // Drawn inside the write transaction, which holds the store's write lock: a code
            // found free here is still free when the row goes in. (Two draws alike among 31^8
            // codes are next to impossible; the loop is for correctness, not for speed.)
            var code = FriendCode.random(using: random)
            while try db.user(friendCode: code.rawValue) != nil { code = FriendCode.random(using: random) }
            try db.insert(UserRecord(
                id: id.rawValue, email: address.value, emailKey: address.key, displayName: name.value,
                friendCode: code.rawValue, passwordHash: passwordHash, createdAt: createdAt
            ))
            if let waiting { try db.saveEmailVerification(waiting) }
            return code
        }
        // The account stands whether or not the code could be sent: a new one can be asked for.
        if let proof { try? await deliver(proof, of: id.rawValue, to: address, name: name) }
        return User(id: id, email: address, displayName: name, friendCode: code, emailVerified: verification == nil)
    }

    public func signIn(email: String, password: String) async throws(AccountsError) -> User {
        let key = EmailAddress.key(for: email)
        let record = try await storing { try await store.read { try $0.user(emailKey: key) } }
        guard let record else {
            // Spend the same time as a real check, so timing does not tell which emails exist.
            await hasher.verifyDecoy(password)
            throw .wrongEmailOrPassword
        }
        guard await hasher.verify(password, against: record.passwordHash) else { throw .wrongEmailOrPassword }
        try await startSession(for: record.id) { _ in }
        return try user(from: record)
    }

    public func signOut() async throws(AccountsError) {
        let tokens = tokens
        let remembered = current.token.withLock { $0 }
        try await storing {
            guard let token = try remembered ?? tokens.load() else { return }
            let hash = SessionToken.hash(token)
            try await store.write { db in
                try db.deleteSession(tokenHash: hash)
                try tokens.clear()
            }
        }
        current.token.withLock { $0 = nil }
    }

    public func storedSession() async throws(AccountsError) -> StoredSession {
        let tokens = tokens
        let time = now().timeIntervalSince1970
        let found = try await storing { () async throws -> Found in
            guard let token = try tokens.load() else { return .nothing }
            let hash = SessionToken.hash(token)
            // Most uses come soon after the last: a read is enough then (a server checks the
            // session of every request). Only an ended session or a stale time needs a write.
            let recent = try await store.read { db -> Found? in
                guard let session = try db.session(tokenHash: hash) else { return .nothing }
                guard Self.isLive(session, at: time), time - session.lastUsedAt < SessionPolicy.touchInterval, time >= session.lastUsedAt
                else { return nil }
                return try db.user(id: session.userID).map { .user($0, token: token) } ?? .nothing
            }
            if let recent { return recent }
            return try await store.write { db in
                // A token the store does not know (forged, or ended elsewhere): nobody.
                guard let session = try db.session(tokenHash: hash) else { return .nothing }
                guard Self.isLive(session, at: time) else {
                    try db.deleteSession(tokenHash: hash)
                    try tokens.clear()
                    return .expired
                }
                try db.touchSession(tokenHash: hash, at: max(time, session.lastUsedAt))
                return try db.user(id: session.userID).map { .user($0, token: token) } ?? .nothing
            }
        }
        switch found {
        case .nothing:
            current.token.withLock { $0 = nil }
            return .signedOut
        case .expired:
            current.token.withLock { $0 = nil }
            return .expired
        case .user(let record, let token):
            current.token.withLock { $0 = token }
            return .signedIn(try user(from: record))
        }
    }

    public func existing(among people: Set<UserID>) async throws(AccountsError) -> Set<UserID> {
        let ids = people.map(\.rawValue)
        let found = try await storing { try await store.read { try $0.existingUserIDs(among: ids) } }
        return Set(found.map(UserID.init(rawValue:)))
    }

    public func users(_ people: Set<UserID>, for user: UserID) async throws(AccountsError) -> [User] {
        let others = people.subtracting([user])
        var shown = people.intersection([user])
        if !others.isEmpty { shown.formUnion(try await storing { try await visibility.shown(among: others, to: user) }.intersection(others)) }
        guard !shown.isEmpty else { return [] }
        let ids = shown.map(\.rawValue)
        let records = try await storing { try await store.read { db in try ids.compactMap { try db.user(id: $0) } } }
        var users: [User] = []
        for record in records { users.append(try self.user(from: record)) }
        return users
    }

    public func displayNames(of people: Set<UserID>, for user: UserID) async throws(AccountsError) -> [UserID: DisplayName] {
        guard !people.isEmpty else { return [:] }
        let ids = people.map(\.rawValue)
        let records = try await storing { try await store.read { db in try ids.compactMap { try db.user(id: $0) } } }
        // Only the name is read, and checked: a replica keeps stand-ins for the rest of an
        // account it knows by name alone.
        var names: [UserID: DisplayName] = [:]
        for record in records {
            guard let name = try? DisplayName(record.displayName) else { throw .storeUnavailable("the stored account \(record.id) is damaged") }
            names[UserID(rawValue: record.id)] = name
        }
        return names
    }

    public func profile(withFriendCode code: FriendCode, for user: UserID) async throws(AccountsError) -> PublicProfile? {
        let text = code.rawValue
        guard let record = try await storing({ try await store.read { try $0.user(friendCode: text) } }) else { return nil }
        return try self.user(from: record).profile
    }

    public func profile(withEmail email: String, for user: UserID) async throws(AccountsError) -> PublicProfile? {
        let key = EmailAddress.key(for: email)
        guard let record = try await storing({ try await store.read { try $0.user(emailKey: key) } }) else { return nil }
        let found = try self.user(from: record)
        // Nobody is found by an email they have not proved is theirs.
        return found.emailVerified ? found.profile : nil
    }

    // MARK: - Account settings

    public func changeDisplayName(to displayName: String, of user: UserID) async throws(AccountsError) -> User {
        let name: DisplayName
        do throws(DisplayName.Problem) { name = try DisplayName(displayName) } catch { throw .invalidDisplayName(error) }
        let id = user.rawValue
        let record = try await storing {
            try await store.write { db in
                guard try db.user(id: id) != nil else { throw AccountsError.noSuchAccount }
                try db.updateDisplayName(userID: id, to: name.value)
                return try db.user(id: id)
            }
        }
        guard let record else { throw .noSuchAccount }
        return try self.user(from: record)
    }

    public func changeEmail(to email: String, password: String, of user: UserID) async throws(AccountsError) -> User {
        let address: EmailAddress
        do throws(EmailAddress.Problem) { address = try EmailAddress(email) } catch { throw .invalidEmail(error) }
        let checked = try await checkPassword(password, of: user)
        let id = user.rawValue
        let tokens = tokens
        let remembered = self.current.token.withLock { $0 }
        let time = now().timeIntervalSince1970
        let proof = verification == nil ? nil : VerificationCode.random(using: random)
        let record = try await storing {
            let kept = try remembered ?? tokens.load()
            return try await store.write { db -> (UserRecord?, sent: Bool) in
                // The password checked is still the account's: nobody changed it meanwhile.
                guard let current = try db.user(id: id), current.passwordHash == checked.passwordHash else {
                    throw AccountsError.wrongPassword
                }
                try db.updateEmail(userID: id, to: address.value, key: address.key)
                // A new address is unproved until its code is entered (the same one in another
                // case stays as it was).
                var sent = false
                if let proof, current.emailKey != address.key {
                    try db.setEmailVerified(userID: id, at: nil)
                    try db.saveEmailVerification(EmailVerificationRecord(
                        userID: id, emailKey: address.key, codeHash: VerificationCode.hash(proof.digits, of: id), sentAt: time,
                        triesLeft: EmailVerificationPolicy.tries
                    ))
                    sent = true
                }
                // Every other session ends: one that someone else holds is not theirs to keep
                // once the account's address is no longer the one they may have known.
                try db.deleteSessions(userID: id, except: kept.map(SessionToken.hash))
                return (try db.user(id: id), sent)
            }
        }
        guard let changed = record.0 else { throw .noSuchAccount }
        let updated = try self.user(from: changed)
        if let proof, record.sent { try? await deliver(proof, of: id, to: address, name: updated.displayName) }
        return updated
    }

    // MARK: - Email verification

    public func sendVerificationCode(to user: UserID) async throws(AccountsError) {
        guard verification != nil else { throw .alreadyVerified }
        let id = user.rawValue
        let time = now().timeIntervalSince1970
        let proof = VerificationCode.random(using: random)
        let record = try await storing {
            try await store.write { db -> UserRecord in
                guard let record = try db.user(id: id) else { throw AccountsError.noSuchAccount }
                guard record.emailVerifiedAt == nil else { throw AccountsError.alreadyVerified }
                // One code a minute at most: asking cannot fill someone's mailbox.
                if let waiting = try db.emailVerification(userID: id), waiting.emailKey == record.emailKey {
                    let since = time - waiting.sentAt
                    if since >= 0, since < EmailVerificationPolicy.resendInterval {
                        throw AccountsError.tooManyAttempts(seconds: max(1, Int((EmailVerificationPolicy.resendInterval - since).rounded(.up))))
                    }
                }
                try db.saveEmailVerification(EmailVerificationRecord(
                    userID: id, emailKey: record.emailKey, codeHash: VerificationCode.hash(proof.digits, of: id), sentAt: time,
                    triesLeft: EmailVerificationPolicy.tries
                ))
                return record
            }
        }
        let found = try self.user(from: record)
        try await deliver(proof, of: id, to: found.email, name: found.displayName)
    }

    public func verifyEmail(code: String, of user: UserID) async throws(AccountsError) -> User {
        let id = user.rawValue
        let time = now().timeIntervalSince1970
        let digits = EmailVerificationPolicy.normalisedCode(code)
        let checking = verification != nil
        let outcome = try await storing {
            try await store.write { db -> CodeCheck in
                guard let record = try db.user(id: id) else { throw AccountsError.noSuchAccount }
                guard checking, record.emailVerifiedAt == nil else { return .verified(record) }
                guard let waiting = try db.emailVerification(userID: id), waiting.emailKey == record.emailKey,
                    time - waiting.sentAt <= EmailVerificationPolicy.codeLifetime
                else {
                    try db.deleteEmailVerification(userID: id)
                    return .expired
                }
                // Not six digits: a slip of the keyboard, which costs no try.
                guard let digits else { return .wrong(triesLeft: waiting.triesLeft) }
                // The try is taken first, in one statement: tries made at once each count.
                guard let left = try db.takeEmailVerificationTry(userID: id) else { return .expired }
                // A code used up stays until the next is sent: its time still spaces the codes.
                guard VerificationCode.hash(digits, of: id) == waiting.codeHash else { return .wrong(triesLeft: left) }
                try db.setEmailVerified(userID: id, at: time)
                try db.deleteEmailVerification(userID: id)
                return try db.user(id: id).map(CodeCheck.verified) ?? .expired
            }
        }
        switch outcome {
        case .verified(let record): return try self.user(from: record)
        case .wrong(let left): throw .wrongCode(triesLeft: left)
        case .expired: throw .codeExpired
        }
    }

    private enum CodeCheck: Sendable {
        case verified(UserRecord)
        case wrong(triesLeft: Int)
        case expired
    }

    /// Sends `proof` to the user; when it cannot be sent, the waiting code is dropped (so a new
    /// one may be asked for at once) and the reason thrown.
    private func deliver(_ proof: VerificationCode, of user: String, to address: EmailAddress, name: DisplayName) async throws(AccountsError) {
        guard let verification else { return }
        do {
            try await verification.send(code: proof.digits, to: address, name: name)
        } catch {
            let hash = VerificationCode.hash(proof.digits, of: user)
            _ = try? await store.write { db in
                if try db.emailVerification(userID: user)?.codeHash == hash { try db.deleteEmailVerification(userID: user) }
            }
            throw .mailUnavailable("\(error)")
        }
    }

    public func changePassword(from current: String, to new: String, of user: UserID) async throws(AccountsError) {
        do throws(PasswordRules.Problem) { try PasswordRules.check(new) } catch { throw .invalidPassword(error) }
        let checked = try await checkPassword(current, of: user)
        guard new != current else { throw .samePassword }
        let hash = try await hasher.hash(new)
        let id = user.rawValue
        let tokens = tokens
        let remembered = self.current.token.withLock { $0 }
        try await storing {
            let kept = try remembered ?? tokens.load()
            try await store.write { db in
                guard let stored = try db.user(id: id), stored.passwordHash == checked.passwordHash else {
                    throw AccountsError.wrongPassword
                }
                try db.updatePasswordHash(userID: id, to: hash)
                // Every other session ends: a device that knew the old password is signed out.
                try db.deleteSessions(userID: id, except: kept.map(SessionToken.hash))
            }
        }
    }

    // MARK: - Sessions

    public func sessions(of user: UserID) async throws(AccountsError) -> [SessionSummary] {
        let id = user.rawValue
        let time = now().timeIntervalSince1970
        let currentHash = try await currentTokenHash()
        let records = try await storing { try await store.read { try $0.sessions(userID: id) } }
        let summaries = records.filter { Self.isLive($0, at: time) }.map { record in
            SessionSummary(
                id: Self.publicID(of: record), client: record.client.isEmpty ? "an earlier version of flows" : record.client,
                createdAt: Date(timeIntervalSince1970: record.createdAt), lastUsedAt: Date(timeIntervalSince1970: record.lastUsedAt),
                isCurrent: record.tokenHash == currentHash
            )
        }
        return summaries.sorted { ($0.isCurrent ? 1 : 0, $0.lastUsedAt, $0.id) > ($1.isCurrent ? 1 : 0, $1.lastUsedAt, $1.id) }
    }

    public func endSession(_ sessionID: SessionSummary.ID, of user: UserID) async throws(AccountsError) {
        guard SessionSummary.isID(sessionID) else { throw .noSuchSession }
        let id = user.rawValue
        let currentHash = try await currentTokenHash()
        let ended = try await storing {
            try await store.write { db -> String? in
                guard let session = try db.sessions(userID: id).first(where: { Self.publicID(of: $0) == sessionID }) else { return nil }
                if session.tokenHash == currentHash { return session.tokenHash }
                try db.deleteSession(tokenHash: session.tokenHash)
                return session.tokenHash
            }
        }
        guard let ended else { throw .noSuchSession }
        if ended == currentHash { try await signOut() }
    }

    public func endOtherSessions(of user: UserID) async throws(AccountsError) -> Int {
        let id = user.rawValue
        let currentHash = try await currentTokenHash()
        return try await storing {
            try await store.write { db in
                let others = try db.sessions(userID: id).filter { $0.tokenHash != currentHash }
                try db.deleteSessions(userID: id, except: currentHash)
                return others.count
            }
        }
    }

    /// The hash of the token this service is signed in with, if any.
    private func currentTokenHash() async throws(AccountsError) -> String? {
        let tokens = tokens
        let remembered = current.token.withLock { $0 }
        return try await storing { try remembered ?? tokens.load() }.map(SessionToken.hash)
    }

    /// A session's name in the list: the start of its token's hash (which the token cannot be
    /// read back from).
    private static func publicID(of session: SessionRecord) -> String {
        String(session.tokenHash.prefix(16))
    }

    /// Whether a session has neither gone unused too long nor lived too long at `time`.
    private static func isLive(_ session: SessionRecord, at time: Double) -> Bool {
        time - session.lastUsedAt <= SessionPolicy.idleLimit && time - session.createdAt <= SessionPolicy.lifetimeLimit
    }

    /// What signs in, as kept: printable characters only, at most ``SessionPolicy/clientLength``.
    private func clientDescription() -> String {
        let printable = client().unicodeScalars.filter { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: false
            default: true
            }
        }
        let text = String(String.UnicodeScalarView(printable)).trimmingCharacters(in: .whitespaces)
        return String(text.prefix(SessionPolicy.clientLength))
    }

    public func avatar(of person: UserID, for user: UserID) async throws(AccountsError) -> Avatar {
        try await avatar(of: person)
    }

    public func avatar(of user: UserID) async throws(AccountsError) -> Avatar {
        let id = user.rawValue
        guard let record = try await storing({ try await store.read { try $0.avatar(userID: id) } }) else { return .none }
        do {
            switch record.kind {
            case "initials":
                return .initials(try SaveFormatter.value(AvatarColour.self, from: record.colour ?? ""))
            case "image":
                // Checked again: what the store gives back is a picture by the same rules.
                return .image(try AvatarImage(bytes: record.bytes ?? []))
            default:
                throw SaveFormatError(type: "avatar kind", text: record.kind)
            }
        } catch {
            throw .storeUnavailable("the stored avatar of \(user) is damaged: \(error)")
        }
    }

    public func changeAvatar(to avatar: Avatar, of user: UserID) async throws(AccountsError) {
        let id = user.rawValue
        let record: AvatarRecord? = switch avatar {
        case .none: nil
        case .initials(let colour): AvatarRecord(userID: id, kind: "initials", colour: SaveFormatter.text(colour))
        case .image(let image):
            AvatarRecord(userID: id, kind: "image", format: image.format.rawValue, width: image.width, height: image.height, bytes: image.bytes)
        }
        try await storing {
            try await store.write { db in
                guard try db.user(id: id) != nil else { throw AccountsError.noSuchAccount }
                try db.saveAvatar(record, userID: id)
            }
        }
    }

    /// The user's record once `password` is their current one: the same bcrypt work whether
    /// the account exists or not.
    private func checkPassword(_ password: String, of user: UserID) async throws(AccountsError) -> UserRecord {
        let id = user.rawValue
        guard let record = try await storing({ try await store.read { try $0.user(id: id) } }) else {
            await hasher.verifyDecoy(password)
            throw .noSuchAccount
        }
        guard await hasher.verify(password, against: record.passwordHash) else { throw .wrongPassword }
        return record
    }

    private enum Found: Sendable {
        case nothing
        case expired
        case user(UserRecord, token: String)
    }

    /// Starts a session for the user `userID` in one transaction with `work` (creating the
    /// account, for sign-up), and returns what `work` returns: the previous session of this
    /// store ends, the user's idle sessions end, and the new token is kept; if it cannot be
    /// kept, nothing happens.
    private func startSession<T: Sendable>(
        for userID: String, with work: @escaping @Sendable (any AccountsWriting) throws -> T
    ) async throws(AccountsError) -> T {
        let token = SessionToken.random(using: random)
        let time = now().timeIntervalSince1970
        let session = SessionRecord(tokenHash: SessionToken.hash(token.text), userID: userID, createdAt: time, client: clientDescription())
        let tokens = tokens
        let remembered = current.token.withLock { $0 }
        let result = try await storing {
            let previous = try remembered ?? tokens.load()
            return try await store.write { db in
                let result = try work(db)
                if let previous { try db.deleteSession(tokenHash: SessionToken.hash(previous)) }
                try db.deleteSessions(userID: userID, unusedSince: time - SessionPolicy.idleLimit)
                for old in try db.sessions(userID: userID) where !Self.isLive(old, at: time) { try db.deleteSession(tokenHash: old.tokenHash) }
                try db.insert(session)
                // Inside the transaction: if the token cannot be kept, nothing is written.
                try tokens.save(token.text)
                return result
            }
        }
        current.token.withLock { $0 = token.text }
        return result
    }

    // MARK: - Helpers

    private final class CurrentSession: Sendable {
        let token = Mutex<String?>(nil)
    }

    private func user(from record: UserRecord) throws(AccountsError) -> User {
        do {
            return User(
                id: UserID(rawValue: record.id), email: try EmailAddress(record.email), displayName: try DisplayName(record.displayName),
                friendCode: try FriendCode(record.friendCode), emailVerified: verification == nil || record.emailVerifiedAt != nil
            )
        } catch {
            throw .storeUnavailable("the stored account \(record.id) is damaged")
        }
    }

    /// Runs store work, turning its failures into ``AccountsError``s.
    func storing<T>(_ work: () async throws -> T) async throws(AccountsError) -> T {
        do {
            return try await work()
        } catch let error as AccountsError {
            throw error
        } catch AccountsDataError.emailTaken {
            throw .emailTaken

        } catch let AccountsDataError.refused(rule) {
            throw .refused(rule)
        } catch {
            throw .storeUnavailable("\(error)")
        }
    }
}
