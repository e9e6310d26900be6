import Accounts
import AuthenticatedFlow
import FlowKit
import UnauthenticatedFlow

/// The whole app: a stored session leads to Authenticated, none to Unauthenticated; signing out
/// goes back to the welcome, until the user quits.
public actor AppFlow: InventoriedFlow {
    /// How the app ended.
    public enum FlowResult: FlowOutcome {
        /// The user quit; `user` is who stays signed in, if anyone.
        case closed(user: User?)
        /// The store could not be read and the user gave up.
        case failed(String)
        case cancelled

        public var name: String {
            switch self {
            case .closed: "closed"
            case .failed: "failed"
            case .cancelled: "cancelled"
            }
        }

        public var status: FlowOutcomeStatus {
            switch self {
            case .closed: .completed
            case .failed: .failed
            case .cancelled: .cancelled
            }
        }

        public var failureReason: String? {
            if case .failed(let message) = self { message } else { nil }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: OutcomeCodingKey.self)
            try container.encode(name, forKey: .result)
            switch self {
            case .closed(let user): try container.encode(user, forKey: "user")
            case .failed(let message): try container.encode(message, forKey: "error")
            case .cancelled: break
            }
        }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory { AppView.inventory }

    private let accounts: any AccountsService
    private let router: AppRouter
    private let presenter: AppPresenter

    public init(accounts: any AccountsService, router: AppRouter) {
        self.accounts = accounts
        self.router = router
        presenter = AppPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var user: User?
        switch await storedUser() {
        case .success(let stored): user = stored
        case .failure(let message): return .failed(message)
        }
        while true {
            if let signedIn = user {
                switch await AuthenticatedFlow(user: signedIn, accounts: accounts, router: router).perform() {
                case .signedOut: user = nil
                case .closed: return .closed(user: signedIn)
                case .cancelled: return .cancelled
                }
            } else {
                switch await UnauthenticatedFlow(accounts: accounts, router: router).perform() {
                case .authenticated(let signedIn): user = signedIn
                case .quit: return .closed(user: nil)
                case .cancelled: return .cancelled
                }
            }
        }
    }

    private enum Stored {
        case success(User?)
        case failure(String)
    }

    /// The user of the stored session. The app's own screen appears only when the store cannot
    /// be read, offering to try again.
    private func storedUser() async -> Stored {
        var model = AppViewModel()
        var view: AppViewActions?
        while true {
            do {
                let user = try await accounts.currentUser()
                if view != nil { await presenter.dismiss() }
                return .success(user)
            } catch {
                model.failed(error)
            }
            if let view {
                await view.show(model.state)
            } else {
                view = await presenter.present(model.state)
            }
            switch await view?.next() ?? .quit {
            case .retry:
                model.retrying()
                await view?.show(model.state)
            case .quit:
                await presenter.dismiss()
                return .failure(model.state.message)
            }
        }
    }
}
