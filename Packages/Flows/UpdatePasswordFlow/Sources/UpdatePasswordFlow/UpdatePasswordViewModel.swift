import Accounts
import FlowKit
import FormFields
import Primitives

/// What the password form shows: whether each password is typed, never the passwords.
struct UpdatePasswordViewState: Equatable, Sendable {
    var current = SecretEntry()
    var new = SecretEntry()
    var repeated = SecretEntry()
    var phase = Phase.idle
}

/// Turns what the user types and what the service answers into the password form's state.
struct UpdatePasswordViewModel: FormViewModel {
    /// A state for each thing the screen can show (idle, saving, every refusal): the flow's
    /// coverage inventory is drawn from these.
    static var examples: [UpdatePasswordViewState] {
        let refusals = PasswordRules.Problem.allCases.map(AccountsError.invalidPassword)
            + [.wrongPassword, .samePassword, .noSuchAccount, .refused(FlowInventory.anyDetail), .storeUnavailable(FlowInventory.anyDetail)]
        var saving = UpdatePasswordViewModel()
        saving.busy()
        var empty = UpdatePasswordViewModel()
        _ = empty.checkAll()
        var differ = UpdatePasswordViewModel()
        differ.typed(UpdatePasswordView.new, "correct horse")
        differ.typed(UpdatePasswordView.repeated, "correct hose")
        return [UpdatePasswordViewModel().state, saving.state, empty.state, differ.state] + UpdatePasswordViewModel().refusing(refusals)
    }

    private(set) var state = UpdatePasswordViewState()
    private var current = SecretInput(.required(Self.currentNeeded))
    private var new = SecretInput(.newPassword)
    private var repeated = ""

    /// The passwords as typed, for the service (which checks them again).
    var form: (current: String, new: String) { (current.value, new.value) }

    /// A field as typed now, checked as it stands; the repeat is checked against the new one.
    mutating func typed(_ field: ElementID, _ text: String) {
        switch field {
        case UpdatePasswordView.current:
            current.typed(text, shown: &state.current)
        case UpdatePasswordView.new:
            new.typed(text, shown: &state.new)
            if state.repeated.isSet { checkRepeat() }
        case UpdatePasswordView.repeated:
            repeated = text
            state.repeated.isSet = !text.isEmpty
            checkRepeat()
        default: return
        }
        state.phase = .idle
    }

    private mutating func checkRepeat() {
        state.repeated.error = repeated == new.value ? nil : Self.mismatch
    }

    /// Checks every field (an untouched one too); true when the form can be sent.
    mutating func checkAll() -> Bool {
        typed(UpdatePasswordView.current, current.value)
        typed(UpdatePasswordView.new, new.value)
        typed(UpdatePasswordView.repeated, repeated)
        return state.current.error == nil && state.new.error == nil && state.repeated.error == nil
    }

    mutating func busy() {
        state.phase = .loading
    }

    mutating func failed(_ error: AccountsError) {
        state.phase = .idle
        switch error {
        case .wrongPassword:
            current.refused(error.message, shown: &state.current)
        case .invalidPassword, .samePassword:
            state.new.error = error.message
        default:
            state.phase = .failed(error.message)
        }
    }

    static let currentNeeded = "Enter your current password."
    static let mismatch = "The two new passwords differ; type the same one twice."
}
