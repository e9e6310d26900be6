import Preferences
import Primitives

/// The ThemeManager of the `flows` app: watches the followed user's stored preferences and hands
/// each theme to the renderer, which recolours the screen shown at once.
///
/// Until a renderer is attached (tests, the plain renderer, `--theme` or NO_COLOR choosing the
/// colours for the run) following someone changes nothing on screen.
public actor TerminalThemeManager: ThemeManager {
    /// Applies a theme to what is drawn; nil is the run's own colours.
    public typealias Apply = @Sendable (Theme?) async -> Void

    private let preferences: any PreferencesService
    private var apply: Apply?
    private var following: (@Sendable (UserID?) async -> Void)?
    private var watching: Task<Void, Never>?

    public init(preferences: any PreferencesService) {
        self.preferences = preferences
    }

    /// Where themes go from now on; `following` hears whose they are (a web page listens for
    /// that user's changes).
    public func attach(_ apply: @escaping Apply, following: (@Sendable (UserID?) async -> Void)? = nil) {
        self.apply = apply
        self.following = following
    }

    public func follow(_ user: UserID?) async {
        await following?(user)
        watching?.cancel()
        watching = nil
        guard let user else {
            await apply?(nil)
            return
        }
        let changes = preferences.changes(of: user)
        watching = Task { [apply] in
            for await preferences in changes {
                await apply?(preferences.theme)
            }
        }
    }

    public func show(_ theme: Theme) async {
        await apply?(theme)
    }
}
