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

    /// Ends the current session, if there is one.
    func signOut() async throws(AccountsError)

    /// The user of the stored session, or nil when nobody is signed in.
    func currentUser() async throws(AccountsError) -> User?
}
