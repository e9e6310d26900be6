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
struct SignUpViewModel: FormViewModel {
    /// A state for each thing the screen can show (idle, busy, every refusal the service can
    /// give): the flow's coverage inventory is drawn from these.
    static var examples: [SignUpViewState] {
        let refusals = EmailAddress.Problem.allCases.map(AccountsError.invalidEmail)
            + PasswordRules.Problem.allCases.map(AccountsError.invalidPassword)
            + DisplayName.Problem.allCases.map(AccountsError.invalidDisplayName)
            + [.emailTaken, .refused(FlowInventory.anyDetail), .storeUnavailable(FlowInventory.anyDetail)]
        return [SignUpViewState(), SignUpViewState(phase: .loading)] + SignUpViewModel().refusing(refusals)
    }

    private(set) var state = SignUpViewState()
    private var password = SecretInput(.newPassword)

    /// The answers as typed, for the service (which checks them again).
    var form: (email: String, displayName: String, password: String) {
        (state.email.text, state.displayName.text, password.value)
    }

    /// A field as typed now, checked as it stands.
    mutating func typed(_ field: ElementID, _ text: String) {
        switch field {
        case SignUpView.email: state.email = TextEntry(text, as: EmailAddress.self)
        case SignUpView.displayName: state.displayName = TextEntry(text, as: DisplayName.self)
        case SignUpView.password:
            password.typed(text, shown: &state.password)
        default: return
        }
        state.phase = .idle
    }

    /// Checks every field (an untouched one too); true when the form can be sent.
    mutating func checkAll() -> Bool {
        typed(SignUpView.email, state.email.text)
        typed(SignUpView.password, password.value)
        typed(SignUpView.displayName, state.displayName.text)
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
        case .wrongEmailOrPassword, .wrongPassword, .samePassword, .noSuchAccount, .noSuchSession, .refused, .storeUnavailable, .signedOut,
             .tooManyAttempts, .serverUnreachable, .alreadyVerified, .wrongCode, .codeExpired, .mailUnavailable:
            state.phase = .failed(error.message)
        }
    }
}
