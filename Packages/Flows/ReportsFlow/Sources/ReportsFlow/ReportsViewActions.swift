import FlowKit

/// What the user can do on the reports.
enum ReportsAction: Sendable, Equatable {
    case typed(ElementID, String, isFinal: Bool)
    case show
    case back
}

/// Carries the screen's states to it and the user's events back.
struct ReportsViewActions: ViewActions {
    let connection: ScreenConnection<ReportsView>

    static func action(for event: UserEvent) -> ReportsAction? {
        switch event {
        case .fill(let id, let value): .typed(id, value, isFinal: true)
        case .edit(let id, let value): .typed(id, value, isFinal: false)
        case .tap(ReportsView.show): .show
        case .tap(ReportsView.back), .back, .cancel: .back
        case .choose, .tap: nil
        }
    }
}
