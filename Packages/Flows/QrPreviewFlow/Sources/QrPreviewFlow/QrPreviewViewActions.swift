import FlowKit

/// What the user can do on the friend-code screen.
enum QrPreviewAction: Sendable, Equatable {
    case back
    case cancel
}

/// Carries the friend-code state to the screen and the user's events back.
struct QrPreviewViewActions: ViewActions {
    let connection: ScreenConnection<QrPreviewView>

    static func action(for event: UserEvent) -> QrPreviewAction? {
        switch event {
        case .tap(QrPreviewView.back), .back: .back
        case .cancel: .cancel
        case .fill, .edit, .choose, .tap: nil
        }
    }
}
