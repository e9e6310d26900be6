import FlowKit
import FormFields
import Friends
import Primitives

/// What the new contact's form shows.
struct AddContactViewState: Equatable, Sendable {
    var name = TextEntry()
    var email = TextEntry()
    var phase = Phase.idle
}

/// Turns what the user types and what the Friends domain answers into the form's state.
struct AddContactViewModel: FormViewModel {
    static var examples: [AddContactViewState] {
        var refusals: [FriendsError] = DisplayName.Problem.allCases.map(FriendsError.invalidName)
            + EmailAddress.Problem.allCases.map(FriendsError.invalidEmail)
            + [.emailHasAccount(FlowInventory.anyDetail), .contactEmailTaken(FlowInventory.anyDetail), .tooManyContacts(limit: 0), .storeUnavailable(FlowInventory.anyDetail)]
        if let name = try? DisplayName("Someone") { refusals.append(.contactNameTaken(name)) }
        var adding = AddContactViewModel()
        adding.busy()
        return [AddContactViewModel().state, adding.state] + AddContactViewModel().refusing(refusals)
    }

    private(set) var state = AddContactViewState()

    /// The name as typed.
    var name: String { state.name.text }
    /// The email as typed, or nil when none was.
    var email: String? {
        let email = state.email.text.trimmingWhitespace()
        return email.isEmpty ? nil : email
    }

    mutating func typed(_ field: ElementID, _ text: String) {
        switch field {
        case AddContactView.name: state.name = TextEntry(text, as: DisplayName.self)
        case AddContactView.email: state.email = text.trimmingWhitespace().isEmpty ? TextEntry(text) : TextEntry(text, as: EmailAddress.self)
        default: return
        }
        state.phase = .idle
    }

    /// Checks both fields as they stand, as the Friends domain will; true when they can be sent.
    mutating func checkAll() -> Bool {
        typed(AddContactView.name, state.name.text)
        typed(AddContactView.email, state.email.text)
        return state.name.error == nil && state.email.error == nil
    }

    mutating func busy() {
        state.phase = .loading
    }

    /// A refusal goes under the field it is about; anything else is the screen's error.
    mutating func failed(_ error: FriendsError) {
        state.phase = .idle
        switch error {
        case .invalidName, .contactNameTaken: state.name.error = error.message
        case .invalidEmail, .emailHasAccount, .contactEmailTaken: state.email.error = error.message
        default: state.phase = .failed(error.message)
        }
    }
}
