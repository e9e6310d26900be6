import Accounts
import FlowKit

/// Shows the user's friend code as a QR code a friend's phone can scan, and as text to type.
public actor QrPreviewFlow: InventoriedFlow {
    /// How the preview was left.
    public enum FlowResult: FlowOutcome {
        /// The user went back, having shown the code.
        case closed
        case cancelled
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: QrPreviewView(), for: [QrPreviewViewModel(code: FlowInventory.anyDetail).state])
    }

    private let user: User
    private let presenter: ScreenPresenter<QrPreviewAction>

    public init(user: User, router: AppRouter) {
        self.user = user
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        let model = QrPreviewViewModel(code: user.friendCode.description)
        return await presenter.presenting(model.state) { view in
            switch await view.next() {
            case .back: .closed
            case .cancel: .cancelled
            }
        }
    }
}
