import Accounts
import FlowKit

/// The home of a signed-in user: shows who is signed in and offers to sign out.
/// (Its Account, Friends and Expenses tabs come with their own flows.)
public actor AuthenticatedFlow: InventoriedFlow {
    /// How the home screen ended.
    public enum FlowResult: FlowOutcome {
        /// The session ended; the user is signed out.
        case signedOut
        /// The user closed the app and stays signed in.
        case closed
        case cancelled

        public var name: String {
            switch self {
            case .signedOut: "signed-out"
            case .closed: "closed"
            case .cancelled: "cancelled"
            }
        }

        public var status: FlowOutcomeStatus {
            switch self {
            case .signedOut, .closed: .completed
            case .cancelled: .cancelled
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: OutcomeCodingKey.self)
            try container.encode(name, forKey: .result)
        }
    }

    private let user: User
    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory { AuthenticatedView.inventory }

    private let accounts: any AccountsService
    private let presenter: AuthenticatedPresenter

    public init(user: User, accounts: any AccountsService, router: AppRouter) {
        self.user = user
        self.accounts = accounts
        presenter = AuthenticatedPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var model = AuthenticatedViewModel(user: user)
        let view = await presenter.present(model.state)
        while true {
            switch await view.next() {
            case .signOut:
                model.signingOut()
                await view.show(model.state)
                do {
                    try await accounts.signOut()
                    await presenter.dismiss()
                    return .signedOut
                } catch {
                    model.failed(error)
                }
            case .quit:
                await presenter.dismiss()
                return .closed
            case .cancel:
                await presenter.dismiss()
                return .cancelled
            }
            await view.show(model.state)
        }
    }
}
