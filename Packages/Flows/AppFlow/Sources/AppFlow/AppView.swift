import FlowKit

/// Draws the app's own screen, shown only when the store cannot be read.
struct AppView: View {
    static let screenID: ScreenID = "app-unavailable"
    static let quit: ElementID = "quit"
    enum Tap: String, ScreenTap { case retry }

    func screen(for state: AppViewState) -> Screen {
        Screen(
            id: Self.screenID,
            title: "Flows cannot open your data",
            text: ["Nothing was changed. Check the folder named below (or FLOWS_HOME) and try again."],
            actions: [
                Action(Tap.retry, label: "Try again", role: .primary),
                Action(id: Self.quit, label: "Quit", role: .cancel),
            ],
            status: state.isRetrying ? .busy("Opening the store") : .error(state.message)
        )
    }
}
