import FlowKit
import FormFields
import Friends
import Primitives

/// What the add-a-friend screen shows.
struct AddFriendViewState: Equatable, Sendable {
    enum How: String, Sendable, CaseIterable {
        case friendCode = "friend-code"
        case email
        case contact

        var label: String {
            switch self {
            case .friendCode: "By friend code"
            case .email: "By email"
            case .contact: "A new contact without an account"
            }
        }

        var fieldLabel: String {
            switch self {
            case .friendCode: "Friend code"
            case .email: "Email"
            case .contact: "Name"
            }
        }

        var hint: String {
            switch self {
            case .friendCode: "like K7QX-M3RD-9, any case"
            case .email: "the email they signed up with"
            case .contact: "1 to 50 characters"
            }
        }
    }

    /// Who is about to be added, in words.
    struct Found: Equatable, Sendable {
        var question: String
        var details: [String]
        /// What confirming does: "Send request" to an account, "Add" a contact.
        var confirm: String
    }

    var how = How.friendCode
    var value = TextEntry()
    var contactEmail = TextEntry()
    var found: Found?
    var phase = Phase.idle
}

/// Turns what the user types and what the service answers into the screen's state.
struct AddFriendViewModel: SubmittingViewModel {
    /// A state for each thing the screen can show: each way, each refusal, the confirmations.
    static var examples: [AddFriendViewState] {
        var states = AddFriendViewState.How.allCases.map { how in
            var model = AddFriendViewModel()
            model.howChosen(how)
            return model.state
        }
        var refusals: [FriendsError] = [
            .yourself, .invalidFriendCode(.length(4)), .invalidEmail(.shape), .invalidName(.empty),
            .storeUnavailable(FlowInventory.anyDetail),
        ]
        if let name = try? DisplayName(FlowInventory.anyDetail) { refusals += [.notTakingRequests(name), .blockedByYou(name)] }
        states += AddFriendViewModel().refusing(refusals)
        var contact = AddFriendViewModel()
        contact.howChosen(.contact)
        contact.valueChanged(FlowInventory.anyDetail)
        contact.contactReady()
        states.append(contact.state)
        if let name = try? DisplayName(FlowInventory.anyDetail) {
            var account = AddFriendViewModel()
            account.found(PublicProfile(id: UserID(rawValue: FlowInventory.anyDetail), name: name), by: .email(FlowInventory.anyDetail))
            states.append(account.state)
            account.found(PublicProfile(id: UserID(rawValue: FlowInventory.anyDetail), name: name), by: .email(FlowInventory.anyDetail), askedFirst: true)
            states.append(account.state)
        }
        return states
    }

    private(set) var state = AddFriendViewState()

    mutating func howChosen(_ how: AddFriendViewState.How) {
        guard how != state.how else { return }
        state = AddFriendViewState(how: how)
    }

    mutating func valueChanged(_ value: String) {
        state.value = TextEntry(value)
        state.phase = .idle
    }

    mutating func contactEmailChanged(_ email: String) {
        state.contactEmail = TextEntry(email)
        state.phase = .idle
    }

    /// Checks the value as it stands, as the service will; true when it can be looked up.
    mutating func check() -> Bool {
        let value = state.value.text
        switch state.how {
        case .friendCode:
            state.value.error = AccountQuery.friendCode(value).problem?.message
        case .email:
            state.value.error = AccountQuery.email(value).problem?.message
        case .contact:
            state.value = TextEntry(value, as: DisplayName.self)
            let email = state.contactEmail.text
            if !email.trimmingCharacters(in: .whitespaces).isEmpty {
                state.contactEmail = TextEntry(email, as: EmailAddress.self)
            }
        }
        return state.value.error == nil && state.contactEmail.error == nil
    }

    mutating func busy() {
        state.phase = .loading
    }

    /// The account found, to confirm.
    /// `askedFirst` when they already asked the user: confirming accepts.
    mutating func found(_ account: PublicProfile, by query: AccountQuery, askedFirst: Bool = false) {
        state.found = askedFirst
            ? AddFriendViewState.Found(
                question: "\(account.name.value) asked to be your friend: accept?",
                details: ["Found by their \(query.summary).", "You become friends at once, and can share expenses."],
                confirm: "Accept"
            )
            : AddFriendViewState.Found(
                question: "Ask \(account.name.value) to be your friend?",
                details: [
                    "Found by their \(query.summary).",
                    "They accept or decline in their Friend requests; once they accept, you can share expenses.",
                ],
                confirm: "Send request"
            )
        state.phase = .idle
    }

    /// The contact to make, to confirm.
    mutating func contactReady() {
        let name = state.value.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let email = state.contactEmail.text.trimmingCharacters(in: .whitespaces)
        state.found = AddFriendViewState.Found(
            question: "Add \(name) as a contact?",
            details: ["No account: they take part in expenses you add."] + (email.isEmpty ? [] : ["Email: \(email)"]),
            confirm: "Add"
        )
        state.phase = .idle
    }

    mutating func backToForm() {
        state.found = nil
        state.phase = .idle
    }

    /// A refusal goes under the field it is about; anything else is the screen's error.
    mutating func failed(_ error: FriendsError) {
        state.phase = .idle
        switch error {
        case .contactEmailTaken, .emailHasAccount:
            state.contactEmail.error = error.message
            state.found = nil
        case .invalidFriendCode, .unknownFriendCode, .invalidEmail, .unknownEmail, .yourself, .alreadyFriends, .invalidName, .contactNameTaken,
            .notTakingRequests, .blockedByYou:
            state.value.error = error.message
            state.found = nil
        default:
            state.phase = .failed(error.message)
        }
    }
}
