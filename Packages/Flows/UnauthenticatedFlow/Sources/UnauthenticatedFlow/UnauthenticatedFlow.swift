import Accounts
import FlowKit
import SignInFlow

/// The welcome for someone who is not signed in: sign in, create an account, or quit.
public actor UnauthenticatedFlow: InventoriedFlow {
    /// How the welcome ended.
    public enum FlowResult: FlowOutcome {
        /// Someone is signed in now (with an account they had or one they just made).
        case authenticated(User)
        /// The user chose to quit without signing in.
        case quit
        case cancelled

        public var name: String {
            switch self {
            case .authenticated: "authenticated"
            case .quit: "quit"
            case .cancelled: "cancelled"
            }
        }

        public var status: FlowOutcomeStatus {
            switch self {
            case .authenticated: .completed
            case .quit: .declined
            case .cancelled: .cancelled
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: OutcomeCodingKey.self)
            try container.encode(name, forKey: .result)
            if case .authenticated(let user) = self { try container.encode(user, forKey: "user") }
        }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory { UnauthenticatedView.inventory }

    private let accounts: any AccountsService
    private let router: AppRouter
    private let presenter: UnauthenticatedPresenter

    public init(accounts: any AccountsService, router: AppRouter) {
        self.accounts = accounts
        self.router = router
        presenter = UnauthenticatedPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        let model = UnauthenticatedViewModel()
        let view = await presenter.present(model.state)
        while true {
            let start: SignInFlow.Start
            switch await view.next() {
            case .signIn: start = .signIn
            case .createAccount: start = .signUp
            case .quit:
                await presenter.dismiss()
                return .quit
            case .cancel:
                await presenter.dismiss()
                return .cancelled
            }
            switch await SignInFlow(accounts: accounts, router: router, start: start).perform() {
            case .signedIn(let user), .signedUp(let user):
                await presenter.dismiss()
                return .authenticated(user)
            case .cancelled:
                await view.show(model.state)
            }
        }
    }
}
