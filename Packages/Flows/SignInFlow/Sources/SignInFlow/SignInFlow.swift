import Accounts
import FlowKit
import SignUpFlow

/// Signs in with an email and a password, or goes on to create an account (SignUp).
public actor SignInFlow: InventoriedFlow {
    /// Which screen the path opens with.
    public enum Start: Sendable {
        /// The sign-in form.
        case signIn
        /// Straight to creating an account; leaving it leaves the whole path.
        case signUp
    }

    /// How sign-in ended.
    public enum FlowResult: FlowOutcome {
        case signedIn(User)
        /// The user created an account instead, and is signed in with it.
        case signedUp(User)
        /// The user left; nothing was written.
        case cancelled

        public var name: String {
            switch self {
            case .signedIn: "signed-in"
            case .signedUp: "signed-up"
            case .cancelled: "cancelled"
            }
        }

        public var status: FlowOutcomeStatus {
            switch self {
            case .signedIn, .signedUp: .completed
            case .cancelled: .cancelled
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: OutcomeCodingKey.self)
            try container.encode(name, forKey: .result)
            switch self {
            case .signedIn(let user), .signedUp(let user): try container.encode(user, forKey: "user")
            case .cancelled: break
            }
        }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory { SignInView.inventory }

    private let accounts: any AccountsService
    private let router: AppRouter
    private let presenter: SignInPresenter
    private let start: Start

    public init(accounts: any AccountsService, router: AppRouter, start: Start = .signIn) {
        self.accounts = accounts
        self.router = router
        self.start = start
        presenter = SignInPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        if start == .signUp {
            return switch await signUp() {
            case .signedUp(let user): .signedUp(user)
            case .cancelled: .cancelled
            }
        }

        var model = SignInViewModel()
        let view = await presenter.present(model.state)
        while true {
            switch await view.next() {
            case .emailChanged(let email):
                model.emailChanged(email)
            case .passwordChanged(let password):
                model.passwordChanged(password)
            case .submit:
                guard model.checkAll() else { break }
                model.submitting()
                await view.show(model.state)
                do {
                    let user = try await accounts.signIn(email: model.state.email, password: model.password)
                    await presenter.dismiss()
                    return .signedIn(user)
                } catch {
                    model.failed(error)
                }
            case .createAccount:
                if case .signedUp(let user) = await signUp() {
                    await presenter.dismiss()
                    return .signedUp(user)
                }
            case .cancel:
                await presenter.dismiss()
                return .cancelled
            }
            await view.show(model.state)
        }
    }

    private func signUp() async -> SignUpFlow.FlowResult {
        await SignUpFlow(accounts: accounts, router: router).perform()
    }
}
