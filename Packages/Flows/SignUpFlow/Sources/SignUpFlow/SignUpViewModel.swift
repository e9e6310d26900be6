import Accounts
import FlowKit
import FormFields
import Primitives

/// What the sign-up screen shows. The password itself is never part of it.
struct SignUpViewState: Equatable, Sendable {
    var email = TextEntry()
    var displayName = TextEntry()
    var password = SecretEntry()
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
    private var password = SecretInput(.newPassword)

    /// The answers as typed, for the service (which checks them again).
    var form: (email: String, displayName: String, password: String) {
        (state.email.text, state.displayName.text, password.value)
    }

    mutating func emailChanged(_ email: String) {
        state.email = TextEntry(email, as: EmailAddress.self)
        state.phase = .idle
    }

    mutating func passwordChanged(_ password: String) {
        self.password.typed(password)
        state.password = self.password.entry
        state.phase = .idle
    }

    mutating func displayNameChanged(_ name: String) {
        state.displayName = TextEntry(name, as: DisplayName.self)
        state.phase = .idle
    }

    /// Checks every field (an untouched one too); true when the form can be sent.
    mutating func checkAll() -> Bool {
        emailChanged(state.email.text)
        passwordChanged(password.value)
        displayNameChanged(state.displayName.text)
        return state.email.error == nil && state.password.error == nil && state.displayName.error == nil
    }

    mutating func busy() {
        state.phase = .loading
    }

    mutating func failed(_ error: AccountsError) {
        switch error {
        case .invalidEmail, .emailTaken:
            state.email.error = error.message
            state.phase = .idle
        case .invalidDisplayName:
            state.displayName.error = error.message
            state.phase = .idle
        case .invalidPassword:
            state.password.error = error.message
            state.phase = .idle
        case .wrongEmailOrPassword, .wrongPassword, .samePassword, .noSuchAccount, .refused, .storeUnavailable, .signedOut,
             .tooManyAttempts, .serverUnreachable:
            state.phase = .failed(error.message)
        }
    }
}
