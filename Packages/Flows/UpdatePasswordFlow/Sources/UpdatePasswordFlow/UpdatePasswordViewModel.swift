import Accounts
import FlowKit
import Primitives

/// What the password form shows: whether each password is typed, never the passwords.
struct UpdatePasswordViewState: Equatable, Sendable {
    var currentIsSet = false
    var newIsSet = false
    var repeatIsSet = false
    var currentError: String?
    var newError: String?
    var repeatError: String?
    var phase = Phase.idle
}

/// Turns what the user types and what the service answers into the password form's state.
struct UpdatePasswordViewModel: SubmittingViewModel {
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
        differ.newChanged("correct horse")
        differ.repeatChanged("correct hose")
        return [UpdatePasswordViewModel().state, saving.state, empty.state, differ.state] + refusals.map { error in
            var model = UpdatePasswordViewModel()
            model.failed(error)
            return model.state
        }
    }

    private(set) var state = UpdatePasswordViewState()
    private var current = ""
    private var new = ""
    private var repeated = ""

    /// The passwords as typed, for the service (which checks them again).
    var form: (current: String, new: String) { (current, new) }

    mutating func currentChanged(_ password: String) {
        current = password
        state.currentIsSet = !password.isEmpty
        state.currentError = password.isEmpty ? Self.currentNeeded : nil
        state.phase = .idle
    }

    mutating func newChanged(_ password: String) {
        new = password
        state.newIsSet = !password.isEmpty
        state.newError = Validation.message { () throws(PasswordRules.Problem) in try PasswordRules.check(password) }
        if state.repeatIsSet { checkRepeat() }
        state.phase = .idle
    }

    mutating func repeatChanged(_ password: String) {
        repeated = password
        state.repeatIsSet = !password.isEmpty
        checkRepeat()
        state.phase = .idle
    }

    private mutating func checkRepeat() {
        state.repeatError = repeated == new ? nil : Self.mismatch
    }

    /// Checks every field (an untouched one too); true when the form can be sent.
    mutating func checkAll() -> Bool {
        let (current, new, repeated) = (current, new, repeated)
        currentChanged(current)
        newChanged(new)
        repeatChanged(repeated)
        return state.currentError == nil && state.newError == nil && state.repeatError == nil
    }

    mutating func busy() {
        state.phase = .loading
    }

    mutating func failed(_ error: AccountsError) {
        state.phase = .idle
        switch error {
        case .wrongPassword:
            current = ""
            state.currentIsSet = false
            state.currentError = error.message
        case .invalidPassword, .samePassword:
            state.newError = error.message
        default:
            state.phase = .failed(error.message)
        }
    }

    static let currentNeeded = "Enter your current password."
    static let mismatch = "The two new passwords differ; type the same one twice."
}
