import FlowKit

/// What the user can do on the reports.
enum ReportsAction: ViewAction {
    typealias ScreenView = ReportsView

    case typed(ElementID, String, isFinal: Bool)
    case tapped(ScreenView.Tap)
    case back

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .fill(let id, let value): .typed(id, value, isFinal: true)
        case .edit(let id, let value): .typed(id, value, isFinal: false)
        case .tap(.back), .back, .cancel: .back
        default: nil
        }
    }
}
