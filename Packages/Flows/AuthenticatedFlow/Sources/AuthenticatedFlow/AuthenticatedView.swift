import FlowKit

/// Draws the home screen: who is signed in, the flow's children as tabs, adding an expense,
/// sign out and quit. Its
/// identifiers are the contract scripts use.
struct AuthenticatedView: View {
    static let screenID: ScreenID = "home"
    enum Tap: String, ScreenTap {
        case addExpense = "add-expense"
        /// Open Sync: what is not on the server yet.
        case sync
        case signOut = "sign-out", quit
    }

    func screen(for state: AuthenticatedViewState) -> Screen {
        Screen(
            id: Self.screenID,
            title: "Flows",
            text: ["Signed in as \(state.displayName) <\(state.email)>."] + (state.offline.map { [$0] } ?? []),
            actions: [Action(Tap.addExpense, label: "Add an expense")]
                // While something is not synced (or the server is out of reach), Sync says what and offers to sync.
                + (state.offline == nil ? [] : [Action(Tap.sync, label: "Sync")]) + [
                Action(Tap.signOut, label: "Sign out", role: .secondary),
                Action(Tap.quit, label: "Quit", role: .cancel),
            ],
            status: state.phase.status(busy: "Signing out") ?? state.notice.map(ScreenStatus.notice),
            tabs: state.tabs
        )
    }
}
