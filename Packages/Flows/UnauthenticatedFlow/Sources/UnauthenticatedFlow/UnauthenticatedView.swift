import FlowKit

/// Draws the welcome screen: the flow's children as actions, and quit. Its identifiers are the
/// contract scripts use.
struct UnauthenticatedView: View {
    static let screenID: ScreenID = "welcome"
    enum Tap: String, ScreenTap { case quit }

    func screen(for state: UnauthenticatedViewState) -> Screen {
        Screen(
            id: Self.screenID,
            title: "Welcome to Flows",
            text: ["Share costs with friends and keep track of your own spending."],
            actions: state.children + [Action(Tap.quit, label: "Quit", role: .cancel)],
            status: state.notice.map(ScreenStatus.notice)
        )
    }
}
