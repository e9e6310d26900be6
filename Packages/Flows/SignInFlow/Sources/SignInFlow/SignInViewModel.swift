import Accounts
import FlowKit
import Primitives

/// What the sign-in screen shows. The password itself is never part of it.
struct SignInViewState: Equatable, Sendable {
    enum Phase: Equatable, Sendable {
        case idle
        case loading
        case failed(String)
    }

    var email = ""
    var passwordIsSet = false
    var emailError: String?
    var passwordError: String?
    var phase = Phase.idle
}

/// Turns what the user types and what the service answers into the sign-in screen's state.
struct SignInViewModel: ViewModel {
    static let passwordMissing = "Enter your password."

    private(set) var state = SignInViewState()
    private(set) var password = ""

    mutating func emailChanged(_ email: String) {
        state.email = email
        state.emailError = Validation.message { () throws(EmailAddress.Problem) in _ = try EmailAddress(email) }
        state.phase = .idle
    }

    mutating func passwordChanged(_ password: String) {
        self.password = password
        state.passwordIsSet = !password.isEmpty
        // Sign-in only compares: a password made under older rules must still work.
        state.passwordError = password.isEmpty ? Self.passwordMissing : nil
        state.phase = .idle
    }

    /// Checks both fields (an untouched one too); true when the form can be sent.
    mutating func checkAll() -> Bool {
        emailChanged(state.email)
        let password = password
        passwordChanged(password)
        return state.emailError == nil && state.passwordError == nil
    }

    mutating func submitting() {
        state.phase = .loading
    }

    /// A failed attempt: the message, and the password cleared for the next try.
    mutating func failed(_ error: AccountsError) {
        password = ""
        state.passwordIsSet = false
        state.phase = .failed(error.message)
    }
}
