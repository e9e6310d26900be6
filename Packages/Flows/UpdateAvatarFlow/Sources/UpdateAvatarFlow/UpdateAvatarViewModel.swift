import Accounts
import FlowKit
import Primitives

/// What the avatar form shows.
struct UpdateAvatarViewState: Equatable, Sendable {
    /// The kinds of avatar offered.
    enum Kind: String, Sendable, CaseIterable {
        case picture, initials, none
    }

    /// The user's initials, as the initials avatar shows them.
    var initials: String
    /// What the user has now, in words.
    var current = ""
    var kind = Kind.picture
    var path = ""
    /// The palette's colours by name, and the one chosen.
    var colours = AvatarColour.allCases.map(\.rawValue)
    var colour = AvatarColour.blue.rawValue
    var pathError: String?
    var phase = Phase.idle
}

/// Turns what the user chooses and what the service and the file answer into the form's state.
struct UpdateAvatarViewModel: SubmittingViewModel {
    typealias Failure = AccountsError

    /// A state for each thing the screen can show: the flow's coverage inventory is drawn from
    /// these.
    static var examples: [UpdateAvatarViewState] {
        let base = UpdateAvatarViewModel(initials: "AL")
        var saving = base
        saving.busy()
        var failed = base
        failed.failed(FlowInventory.anyDetail)
        var refused = base
        refused.pathRefused(FlowInventory.anyDetail)
        var empty = base
        empty.pathChanged("")
        return [base.state, saving.state, failed.state, refused.state, empty.state]
    }

    private(set) var state: UpdateAvatarViewState

    /// The colour chosen, as the domain knows it.
    var colour: AvatarColour { AvatarColour(rawValue: state.colour) ?? .blue }

    init(initials: String) {
        state = UpdateAvatarViewState(initials: initials)
    }

    mutating func loaded(_ avatar: Avatar) {
        state.current = avatar.summary
        if case .initials(let colour) = avatar {
            state.kind = .initials
            state.colour = colour.rawValue
        }
    }

    mutating func kindChosen(_ kind: UpdateAvatarViewState.Kind) {
        state.kind = kind
        state.pathError = nil
        state.phase = .idle
    }

    mutating func pathChanged(_ path: String) {
        state.path = path
        state.kind = .picture
        state.pathError = path.trimmingWhitespace().isEmpty ? UserFileProblem.noPath.message : nil
        state.phase = .idle
    }

    mutating func colourChosen(_ colour: AvatarColour) {
        state.colour = colour.rawValue
        state.kind = .initials
        state.phase = .idle
    }

    mutating func pathRefused(_ message: String) {
        state.pathError = message
        state.phase = .idle
    }

    mutating func busy() {
        state.phase = .loading
    }

    mutating func failed(_ message: String) {
        state.phase = .failed(message)
    }

    /// The service refused the avatar: its message is the screen's error.
    mutating func failed(_ error: AccountsError) {
        failed(error.message)
    }
}
