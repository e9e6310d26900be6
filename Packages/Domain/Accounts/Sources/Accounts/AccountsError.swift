import Primitives

/// Why an accounts operation did not happen, in words a user can act on.
public enum AccountsError: Error, Equatable, Sendable {
    case invalidEmail(EmailAddress.Problem)
    case invalidDisplayName(DisplayName.Problem)
    case invalidPassword(PasswordRules.Problem)
    /// Another account has this email (compared without case).
    case emailTaken
    /// Sign-in failed; never says which of the two was wrong.
    case wrongEmailOrPassword
    /// A change to the account asked for the current password, and this is not it.
    case wrongPassword
    /// A new password that is the current one.
    case samePassword
    /// The account acted on does not exist (any more).
    case noSuchAccount
    /// The session to end is not one of the user's, or has already ended.
    case noSuchSession
    /// The email is verified already: there is no code to send.
    case alreadyVerified
    /// The code entered is not the one sent; so many tries are left.
    case wrongCode(triesLeft: Int)
    /// No code is waiting: none was sent, it is over an hour old, it was tried too often, or
    /// it went to an email the user no longer has.
    case codeExpired
    /// The code could not be sent; the text says why. The account is as it was.
    case mailUnavailable(String)
    /// A rule of the store refused the change (one the checks above should have caught); the
    /// text says which. Nothing was changed.
    case refused(String)
    /// The store could not be read or written; nothing was changed.
    case storeUnavailable(String)
    /// The session ended (signed out elsewhere, or unused for too long) while it was in use.
    case signedOut
    /// Too many attempts for now (a server's limit); the number says in how many seconds to
    /// try again. Nothing was checked.
    case tooManyAttempts(seconds: Int)
    /// The server the app talks to could not be reached, or answered something it should not;
    /// nothing is known to have changed.
    case serverUnreachable(String)

    /// One sentence for the user.
    public var message: String {
        switch self {
        case .invalidEmail(let problem): problem.message
        case .invalidDisplayName(let problem): problem.message
        case .invalidPassword(let problem): problem.message
        case .emailTaken: "An account with this email already exists; sign in instead."
        case .wrongEmailOrPassword: "wrong email or password"
        case .wrongPassword: "That is not your current password."
        case .samePassword: "The new password is the current one; choose another."
        case .noSuchAccount: "This account no longer exists; sign in again."
        case .noSuchSession: "That session has already ended."
        case .alreadyVerified: "Your email is verified already."
        case .wrongCode(let triesLeft):
            triesLeft == 0
                ? "That is not the code we sent, and it was the last try; ask for a new code."
                : "That is not the code we sent; \(triesLeft) \(triesLeft == 1 ? "try" : "tries") left."
        case .codeExpired: "That code is no longer good; ask for a new one."
        case .mailUnavailable(let reason): "The code could not be sent (\(reason)); try again later."
        case .refused(let rule): "The store refused the change (\(rule)); nothing was saved."
        case .storeUnavailable(let reason): "The local store is unavailable: \(reason)"
        case .signedOut: ServerMessages.signedOut
        case .tooManyAttempts(let seconds): "Too many attempts; try again in \(seconds) seconds."
        case .serverUnreachable(let reason): ServerMessages.unreachable(reason)
        }
    }
}
