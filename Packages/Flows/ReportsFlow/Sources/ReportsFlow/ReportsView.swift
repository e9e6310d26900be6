import FlowKit

/// Draws the user's own spending for a range of days, by category and by month, each currency
/// apart, with bars drawn in text. Its identifiers are the contract scripts use.
struct ReportsView: View {
    static let screenID: ScreenID = "reports"
    static let from: ElementID = "from"
    static let through: ElementID = "through"
    enum Tap: String, ScreenTap { case show }

    func screen(for state: ReportsViewState) -> Screen {
        Screen(
            id: Self.screenID,
            title: "Reports",
            text: state.lines,
            fields: [
                Field(id: Self.from, label: "From", input: .day(state.from, resolved: state.fromRead), hint: "yyyy-MM-dd, today, yesterday or a weekday", error: state.fromError),
                Field(id: Self.through, label: "Through", input: .day(state.through, resolved: state.throughRead), hint: "the last day, included", error: state.throughError),
            ],
            actions: [
                Action(Tap.show, label: "Show", role: .primary),
                .back,
            ],
            status: state.phase.status(busy: "Adding up"),
            browses: true
        )
    }
}
