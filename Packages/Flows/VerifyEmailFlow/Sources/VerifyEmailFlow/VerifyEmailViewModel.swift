import Accounts
import FlowKit

/// What the code form shows.
struct VerifyEmailViewState: Equatable, Sendable {
    /// Where the code went.
    var email: String
    /// How long a code is good for, in words ("an hour").
    var lifetime: String
    var codeLength: Int
    var code = TextEntry()
    var phase = Phase.idle
    /// "A new code is on its way ...".
    var notice: String?
}

/// Turns what the user types and what the service answers into the code form's state.
struct VerifyEmailViewModel: SubmittingViewModel {
    /// A state for each thing the screen can show: the flow's coverage inventory is drawn from
    /// these.
    static var examples: [VerifyEmailViewState] {
        let start = VerifyEmailViewModel(email: "")
        var busy = start
        busy.busy()
        var sent = start
        sent.sent()
        var malformed = start
        _ = malformed.checkedCode()
        let refusals: [AccountsError] = [
            .wrongCode(triesLeft: 4), .wrongCode(triesLeft: 1), .wrongCode(triesLeft: 0), .codeExpired, .alreadyVerified,
            .tooManyAttempts(seconds: 42), .mailUnavailable(FlowInventory.anyDetail), .storeUnavailable(FlowInventory.anyDetail),
        ]
        return [start.state, busy.state, sent.state, malformed.state] + start.refusing(refusals)
    }

    private(set) var state: VerifyEmailViewState

    init(email: String) {
        let hours = Int(EmailVerificationPolicy.codeLifetime / 3600)
        state = VerifyEmailViewState(
            email: email, lifetime: hours == 1 ? "an hour" : "\(hours) hours", codeLength: EmailVerificationPolicy.codeLength
        )
    }

    mutating func typed(_ text: String) {
        state.code = TextEntry(text)
        state.phase = .idle
    }

    /// The code as typed, once it has the shape of one; otherwise the field says what a code is.
    mutating func checkedCode() -> String? {
        guard let code = EmailVerificationPolicy.normalisedCode(state.code.text) else {
            state.code.error = "A code is \(EmailVerificationPolicy.codeLength) digits, as in the message we sent."
            return nil
        }
        return code
    }

    /// A new code went out.
    mutating func sent() {
        state.code = TextEntry()
        state.phase = .idle
        state.notice = "A new code is on its way to \(state.email); the earlier one no longer works."
    }

    mutating func busy() {
        state.notice = nil
        state.code.error = nil
        state.phase = .loading
    }

    mutating func failed(_ error: AccountsError) {
        switch error {
        case .wrongCode, .codeExpired:
            state.code.error = error.message
            state.phase = .idle
        default:
            state.phase = .failed(error.message)
        }
    }
}
