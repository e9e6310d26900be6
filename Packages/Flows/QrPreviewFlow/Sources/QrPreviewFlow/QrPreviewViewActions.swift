import FlowKit

/// What the user can do on the friend-code screen.
enum QrPreviewAction: ViewAction {
    typealias ScreenView = QrPreviewView

    case back
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .tap(.back), .back: .back
        case .cancel: .cancel
        default: nil
        }
    }
}
