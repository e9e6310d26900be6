import FlowKit

/// Draws the sessions screen. Its identifiers are the contract scripts use.
struct SessionsView: View {
    static let screenID: ScreenID = "sessions"
    static let session: ElementID = "session"
    enum Tap: String, ScreenTap { case end, endOthers = "end-others" }

    func screen(for state: SessionsViewState) -> Screen {
        let others = state.others.map { Choice(id: ElementID($0.id), label: $0.label) }
        return Screen(
            id: Self.screenID,
            title: "Sessions",
            text: (state.current.map { ["This session: \($0)."] } ?? [])
                + (state.loaded && state.others.isEmpty ? ["No other sessions: you are signed in here only."] : []),
            fields: others.isEmpty ? [] : [
                Field(id: Self.session, label: "Other sessions", input: .choice(others, selected: state.selected.map { ElementID($0) }), hint: "newest use first")
            ],
            actions: (others.isEmpty ? [] : [
                Action(Tap.end, label: "End the chosen session"),
                Action(Tap.endOthers, label: "End all other sessions"),
            ]) + [.back],
            status: state.phase.status(busy: "Ending") ?? state.notice.map(ScreenStatus.notice),
            browses: true
        )
    }
}
