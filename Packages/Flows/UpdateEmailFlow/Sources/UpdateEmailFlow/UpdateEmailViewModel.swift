import Accounts
import FlowKit
import Primitives

/// What the email form shows. The password itself is never part of it.
struct UpdateEmailViewState: Equatable, Sendable {
    /// The address the user signs in with now.
    var current: String
    var email = ""
    var passwordIsSet = false
    var emailError: String?
    var passwordError: String?
    var phase = Phase.idle
}

/// Turns what the user types and what the service answers into the email form's state.
struct UpdateEmailViewModel: SubmittingViewModel {
    /// A state for each thing the screen can show (idle, saving, every refusal): the flow's
    /// coverage inventory is drawn from these.
    static var examples: [UpdateEmailViewState] {
        let refusals = EmailAddress.Problem.allCases.map(AccountsError.invalidEmail)
            + [.emailTaken, .wrongPassword, .noSuchAccount, .refused(FlowInventory.anyDetail), .storeUnavailable(FlowInventory.anyDetail)]
        var saving = UpdateEmailViewModel(current: "")
        saving.busy()
        var empty = UpdateEmailViewModel(current: "")
        _ = empty.checkAll()
        return [UpdateEmailViewModel(current: "").state, saving.state, empty.state] + refusals.map { error in
            var model = UpdateEmailViewModel(current: "")
            model.failed(error)
            return model.state
        }
    }

    private(set) var state: UpdateEmailViewState
    private var password = ""

    init(current: String) {
        state = UpdateEmailViewState(current: current)
    }

    /// The answers as typed, for the service (which checks them again).
    var form: (email: String, password: String) { (state.email, password) }

    mutating func emailChanged(_ email: String) {
        state.email = email
        state.emailError = Validation.message { () throws(EmailAddress.Problem) in _ = try EmailAddress(email) }
        state.phase = .idle
    }

    mutating func passwordChanged(_ password: String) {
        self.password = password
        state.passwordIsSet = !password.isEmpty
        state.passwordError = password.isEmpty ? Self.passwordNeeded : nil
        state.phase = .idle
    }

    /// Checks both fields (an untouched one too); true when the form can be sent.
    mutating func checkAll() -> Bool {
        emailChanged(state.email)
        let password = password
        passwordChanged(password)
        return state.emailError == nil && state.passwordError == nil
    }

    mutating func busy() {
        state.phase = .loading
    }

    mutating func failed(_ error: AccountsError) {
        state.phase = .idle
        switch error {
        case .invalidEmail, .emailTaken:
            state.emailError = error.message
        case .wrongPassword:
            // Typed again from scratch, as at sign-in.
            password = ""
            state.passwordIsSet = false
            state.passwordError = error.message
        default:
            state.phase = .failed(error.message)
        }
    }

    static let passwordNeeded = "Enter your current password."
}
