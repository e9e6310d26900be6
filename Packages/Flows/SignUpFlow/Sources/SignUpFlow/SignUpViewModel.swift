import Accounts
import FlowKit
import Primitives

/// What the sign-up screen shows. The password itself is never part of it.
struct SignUpViewState: Equatable, Sendable {
    var email = ""
    var displayName = ""
    var passwordIsSet = false
    var emailError: String?
    var passwordError: String?
    var displayNameError: String?
    var phase = Phase.idle
}

/// Turns what the user types and what the service answers into the sign-up screen's state.
struct SignUpViewModel: SubmittingViewModel {
    /// A state for each thing the screen can show (idle, busy, every refusal the service can
    /// give): the flow's coverage inventory is drawn from these.
    static var examples: [SignUpViewState] {
        let refusals = EmailAddress.Problem.allCases.map(AccountsError.invalidEmail)
            + PasswordRules.Problem.allCases.map(AccountsError.invalidPassword)
            + DisplayName.Problem.allCases.map(AccountsError.invalidDisplayName)
            + [.emailTaken, .refused(FlowInventory.anyDetail), .storeUnavailable(FlowInventory.anyDetail)]
        return [SignUpViewState(), SignUpViewState(phase: .loading)] + refusals.map { error in
            var model = SignUpViewModel()
            model.failed(error)
            return model.state
        }
    }

    private(set) var state = SignUpViewState()
    private var password = ""

    /// The answers as typed, for the service (which checks them again).
    var form: (email: String, displayName: String, password: String) {
        (state.email, state.displayName, password)
    }

    mutating func emailChanged(_ email: String) {
        state.email = email
        state.emailError = Validation.message { () throws(EmailAddress.Problem) in _ = try EmailAddress(email) }
        state.phase = .idle
    }

    mutating func passwordChanged(_ password: String) {
        self.password = password
        state.passwordIsSet = !password.isEmpty
        state.passwordError = Validation.message { () throws(PasswordRules.Problem) in try PasswordRules.check(password) }
        state.phase = .idle
    }

    mutating func displayNameChanged(_ name: String) {
        state.displayName = name
        state.displayNameError = Validation.message { () throws(DisplayName.Problem) in _ = try DisplayName(name) }
        state.phase = .idle
    }

    /// Checks every field (an untouched one too); true when the form can be sent.
    mutating func checkAll() -> Bool {
        emailChanged(state.email)
        let password = password
        passwordChanged(password)
        displayNameChanged(state.displayName)
        return state.emailError == nil && state.passwordError == nil && state.displayNameError == nil
    }

    mutating func busy() {
        state.phase = .loading
    }

    mutating func failed(_ error: AccountsError) {
        switch error {
        case .invalidEmail, .emailTaken:
            state.emailError = error.message
            state.phase = .idle
        case .invalidDisplayName:
            state.displayNameError = error.message
            state.phase = .idle
        case .invalidPassword:
            state.passwordError = error.message
            state.phase = .idle
        case .wrongEmailOrPassword, .wrongPassword, .samePassword, .noSuchAccount, .refused, .storeUnavailable, .signedOut,
             .tooManyAttempts, .serverUnreachable:
            state.phase = .failed(error.message)
        }
    }
}
