import Accounts
import FlowKit
import FormFields
import Primitives

/// What the name form shows.
struct UpdateDisplayNameViewState: Equatable, Sendable {
    var name: TextEntry
    var phase = Phase.idle
}

/// Turns what the user types and what the service answers into the name form's state.
struct UpdateDisplayNameViewModel: FormViewModel {
    /// A state for each thing the screen can show (idle, saving, every refusal): the flow's
    /// coverage inventory is drawn from these.
    static var examples: [UpdateDisplayNameViewState] {
        let refusals = DisplayName.Problem.allCases.map(AccountsError.invalidDisplayName)
            + [.noSuchAccount, .refused(FlowInventory.anyDetail), .storeUnavailable(FlowInventory.anyDetail)]
        var saving = UpdateDisplayNameViewModel(current: "")
        saving.busy()
        return [UpdateDisplayNameViewModel(current: "").state, saving.state] + UpdateDisplayNameViewModel(current: "").refusing(refusals)
    }

    private(set) var state: UpdateDisplayNameViewState

    /// Starts from the name the user has now.
    init(current: String) {
        state = UpdateDisplayNameViewState(name: TextEntry(current))
    }

    /// The name as typed now, checked as it stands.
    mutating func typed(_ field: ElementID, _ text: String) {
        guard field == UpdateDisplayNameView.name else { return }
        state.name = TextEntry(text, as: DisplayName.self)
        state.phase = .idle
    }

    /// Checks the name as it stands; true when it can be sent.
    mutating func checkAll() -> Bool {
        typed(UpdateDisplayNameView.name, state.name.text)
        return state.name.error == nil
    }

    mutating func busy() {
        state.phase = .loading
    }

    mutating func failed(_ error: AccountsError) {
        switch error {
        case .invalidDisplayName:
            state.name.error = error.message
            state.phase = .idle
        default:
            state.phase = .failed(error.message)
        }
    }
}
