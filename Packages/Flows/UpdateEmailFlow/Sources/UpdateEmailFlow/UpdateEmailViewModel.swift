import Accounts
import FlowKit
import FormFields
import Primitives

/// What the email form shows. The password itself is never part of it.
struct UpdateEmailViewState: Equatable, Sendable {
    /// The address the user signs in with now.
    var current: String
    var email = TextEntry()
    var password = SecretEntry()
    var phase = Phase.idle
}

/// Turns what the user types and what the service answers into the email form's state.
struct UpdateEmailViewModel: FormViewModel {
    /// A state for each thing the screen can show (idle, saving, every refusal): the flow's
    /// coverage inventory is drawn from these.
    static var examples: [UpdateEmailViewState] {
        let refusals = EmailAddress.Problem.allCases.map(AccountsError.invalidEmail)
            + [.emailTaken, .wrongPassword, .noSuchAccount, .refused(FlowInventory.anyDetail), .storeUnavailable(FlowInventory.anyDetail)]
        var saving = UpdateEmailViewModel(current: "")
        saving.busy()
        var empty = UpdateEmailViewModel(current: "")
        _ = empty.checkAll()
        return [UpdateEmailViewModel(current: "").state, saving.state, empty.state] + UpdateEmailViewModel(current: "").refusing(refusals)
    }

    private(set) var state: UpdateEmailViewState
    private var password = SecretInput(.required(Self.passwordNeeded))

    init(current: String) {
        state = UpdateEmailViewState(current: current)
    }

    /// The answers as typed, for the service (which checks them again).
    var form: (email: String, password: String) { (state.email.text, password.value) }

    /// A field as typed now, checked as it stands.
    mutating func typed(_ field: ElementID, _ text: String) {
        switch field {
        case UpdateEmailView.email: state.email = TextEntry(text, as: EmailAddress.self)
        case UpdateEmailView.password:
            password.typed(text, shown: &state.password)
        default: return
        }
        state.phase = .idle
    }

    /// Checks both fields (an untouched one too); true when the form can be sent.
    mutating func checkAll() -> Bool {
        typed(UpdateEmailView.email, state.email.text)
        typed(UpdateEmailView.password, password.value)
        return state.email.error == nil && state.password.error == nil
    }

    mutating func busy() {
        state.phase = .loading
    }

    mutating func failed(_ error: AccountsError) {
        state.phase = .idle
        switch error {
        case .invalidEmail, .emailTaken:
            state.email.error = error.message
        case .wrongPassword:
            // Typed again from scratch, as at sign-in.
            password.refused(error.message, shown: &state.password)
        default:
            state.phase = .failed(error.message)
        }
    }

    static let passwordNeeded = "Enter your current password."
}
