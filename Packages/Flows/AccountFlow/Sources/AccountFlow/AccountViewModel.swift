import Accounts
import FlowKit
import Preferences
import Primitives

/// What the Account tab shows.
struct AccountViewState: Equatable, Sendable {
    var name: String
    var email: String
    var friendCode: String
    /// The avatar in words ("none", "a 64 x 48 JPEG picture"), and as drawn: initials on
    /// their colour, or the picture (with initials to draw where it cannot be).
    var avatar = "none"
    var avatarFigure: Figure?
    /// The stored theme; nil until the preferences are read.
    var theme: Theme?
    /// The currency new expenses start in; nil until the preferences are read.
    var defaultCurrency: Currency?
    /// The changes offered, one per child flow.
    var actions: [Action]
    /// Whether the email still waits for its code.
    var unverified = false
    var phase = Phase.idle
    /// What the last change did ("Name changed to ...").
    var notice: String?
}

/// Turns the user, their preferences and what the changes answered into the tab's state.
struct AccountViewModel: ViewModel {
    /// A state for each thing the screen can show: the flow's coverage inventory is drawn from
    /// these.
    static func examples(actions: [Action]) -> [AccountViewState] {
        let user = AccountViewState(
            name: "", email: "", friendCode: "", theme: .dark, defaultCurrency: .eur, actions: offered(actions, verified: true)
        )
        var failed = user
        failed.phase = .failed(PreferencesError.storeUnavailable(FlowInventory.anyDetail).message)
        var noticed = user
        noticed.notice = FlowInventory.anyDetail
        var unverified = user
        unverified.actions = offered(actions, verified: false)
        unverified.unverified = true
        return [user, failed, noticed, unverified]
    }

    /// The child that proves the email: offered only while it is unverified.
    static let verifyEmail: ElementID = "verify-email"

    private(set) var state: AccountViewState
    private(set) var preferences: Preferences?
    /// Every change, offered or not.
    private let actions: [Action]

    init(user: User, actions: [Action]) {
        self.actions = actions
        state = AccountViewState(
            name: user.displayName.value, email: user.email.value, friendCode: user.friendCode.description,
            actions: Self.offered(actions, verified: user.emailVerified), unverified: !user.emailVerified
        )
    }

    private static func offered(_ actions: [Action], verified: Bool) -> [Action] {
        verified ? actions.filter { $0.id != verifyEmail } : actions
    }

    mutating func loaded(_ preferences: Preferences) {
        self.preferences = preferences
        state.theme = preferences.theme
        state.defaultCurrency = preferences.defaultCurrency
    }

    mutating func avatarLoaded(_ avatar: Avatar, of user: User) {
        state.avatar = avatar.summary
        let initials = user.displayName.initials
        state.avatarFigure = switch avatar {
        case .none: nil
        case .initials(let colour): .initials(initials, colour: colour.rawValue)
        case .image(let image):
            .picture(Picture(
                bytes: image.bytes, format: image.format == .png ? .png : .jpeg, width: image.width, height: image.height,
                initials: initials, colour: AvatarColour.standIn(for: user.id).rawValue
            ))
        }
    }

    mutating func saved(_ preferences: Preferences, notice: String) {
        loaded(preferences)
        state.notice = notice
        state.phase = .idle
    }

    /// Back from a change: the user as they are now, and what changed (nil when cancelled).
    mutating func returned(user: User, notice: String?) {
        state.name = user.displayName.value
        state.email = user.email.value
        state.actions = Self.offered(actions, verified: user.emailVerified)
        state.unverified = !user.emailVerified
        state.notice = notice
        state.phase = .idle
    }

    mutating func failed(_ message: String) {
        state.notice = nil
        state.phase = .failed(message)
    }
}
