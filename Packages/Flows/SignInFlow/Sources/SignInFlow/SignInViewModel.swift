import Accounts
import FlowKit
import FormFields
import Primitives

/// What the sign-in screen shows. The password itself is never part of it.
struct SignInViewState: Equatable, Sendable {
    /// The flows the user can go on to.
    var children: [Action] = []
    var email = TextEntry()
    var password = SecretEntry()
    var phase = Phase.idle
    /// News shown until the user acts, such as a session that expired.
    var notice: String?
}

/// Turns what the user types and what the service answers into the sign-in screen's state.
struct SignInViewModel: SubmittingViewModel {
    static let passwordMissing = "Enter your password."

    /// A state for each thing the screen can show (idle, busy, each refusal of a field, each
    /// failure of the service): the flow's coverage inventory is drawn from these.
    static func examples(children: [Action]) -> [SignInViewState] {
        let base = SignInViewModel(children: children)
        let emailRefusals = EmailAddress.Problem.allMessages.map { message in
            var state = base.state
            state.email.error = message
            return state
        }
        var noPassword = base
        noPassword.typed(SignInView.password, "")
        let failures = base.refusing([.wrongEmailOrPassword, .storeUnavailable(FlowInventory.anyDetail)])
        var loading = base
        loading.busy()
        let expired = SignInViewModel(children: children, notice: StoredSession.expiredNotice)
        return [base.state, loading.state, expired.state] + emailRefusals + [noPassword.state] + failures
    }

    private(set) var state: SignInViewState
    /// Sign-in only compares: a password made under older rules must still work.
    private(set) var password = SecretInput(.required(Self.passwordMissing))

    init(children: [Action], notice: String? = nil) {
        state = SignInViewState(children: children, notice: notice)
    }

    /// A field as typed now, checked as it stands.
    mutating func typed(_ field: ElementID, _ text: String) {
        switch field {
        case SignInView.email: state.email = TextEntry(text, as: EmailAddress.self)
        case SignInView.password:
            password.typed(text, shown: &state.password)
        default: return
        }
        state.phase = .idle
    }

    /// Checks both fields (an untouched one too); true when the form can be sent.
    mutating func checkAll() -> Bool {
        typed(SignInView.email, state.email.text)
        typed(SignInView.password, password.value)
        return state.email.error == nil && state.password.error == nil
    }

    mutating func busy() {
        state.notice = nil
        state.phase = .loading
    }

    /// A failed attempt: the message, and the password cleared for the next try.
    mutating func failed(_ error: AccountsError) {
        password.clear(shown: &state.password)
        state.phase = .failed(error.message)
    }
}
