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
        case failed(error: String)
        case cancelled

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
    }

    /// What the app needs: the needs of its children (and so of every flow), and its own.
    public protocol Dependencies: UnauthenticatedFlow.Dependencies, AuthenticatedFlow.Dependencies {
        var accounts: any AccountsService { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory { FlowInventory(drawing: AppView(), for: AppViewModel.examples) }

    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<AppAction>
    private var router: AppRouter { presenter.router }

    public init(dependencies: any Dependencies, router: AppRouter) {
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var user: User?
        var notice: String?
        switch await storedSession() {
        case .success(.signedIn(let stored)): user = stored
        case .success(.signedOut): break
        case .success(.expired): notice = StoredSession.expiredNotice
        case .failure(let failure): return .failed(error: failure.message)
        }
        while true {
            if let signedIn = user {
                switch await router.start(AuthenticatedFlow(user: signedIn, dependencies: dependencies, router: router)) {
                case .signedOut: user = nil
                case .closed: return .closed(user: signedIn)
                case .cancelled: return .cancelled
                }
            } else {
                let welcome = UnauthenticatedFlow(dependencies: dependencies, router: router, notice: notice)
                notice = nil
                switch await router.start(welcome) {
                case .authenticated(let signedIn): user = signedIn
                case .quit: return .closed(user: nil)
                case .cancelled: return .cancelled
                }
            }
        }
    }

    /// The stored session. The app's own screen appears only when the store cannot be read,
    /// offering to try again.
    private func storedSession() async -> Result<StoredSession, StoreFailure> {
        var model = AppViewModel()
        do {
            return .success(try await dependencies.accounts.storedSession())
        } catch {
            model.failed(error)
        }
        return await presenter.presenting(model.state) { view in
            while true {
                switch await view.next() {
                case .tapped(.retry):
                    model.retrying()
                    await view.show(model.state)
                    do throws(AccountsError) {
                        return .success(try await dependencies.accounts.storedSession())
                    } catch {
                        model.failed(error)
                    }
                    await view.show(model.state)
                case .quit:
                    return .failure(StoreFailure(message: model.state.message))
                }
            }
        }
    }

    private struct StoreFailure: Error {
        var message: String
    }
}
