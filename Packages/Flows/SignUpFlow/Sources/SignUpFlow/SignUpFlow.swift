import Accounts
import FlowKit

/// Creates an account: email, password and display name, checked as they are typed; on success
/// the new account is signed in.
public actor SignUpFlow: InventoriedFlow {
    /// How sign-up ended.
    public enum FlowResult: FlowOutcome {
        /// The account exists and is signed in.
        case signedUp(User)
        /// The user left; no account was created.
        case cancelled

        public func encodeDetails(to container: inout KeyedEncodingContainer<OutcomeCodingKey>) throws {
            if case .signedUp(let user) = self { try container.encode(user, forKey: "user") }
        }
    }

    /// What the flow needs from the app.
    public protocol Dependencies: Sendable {
        var accounts: any AccountsService { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory { FlowInventory(drawing: SignUpView(), for: SignUpViewModel.examples) }

    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<SignUpAction>

    public init(dependencies: any Dependencies, router: AppRouter) {
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var model = SignUpViewModel()
        return await presenter.presenting(model.state) { view in
            while true {
                switch await view.next() {
                case .emailChanged(let email):
                    model.emailChanged(email)
                case .passwordChanged(let password):
                    model.passwordChanged(password)
                case .displayNameChanged(let name):
                    model.displayNameChanged(name)
                case .submit:
                    guard model.checkAll() else { break }
                    model.submitting()
                    await view.show(model.state)
                    do throws(AccountsError) {
                        let form = model.form
                        return .signedUp(try await dependencies.accounts.signUp(email: form.email, displayName: form.displayName, password: form.password))
                    } catch {
                        model.failed(error)
                    }
                case .cancel:
                    return .cancelled
                }
                await view.show(model.state)
            }
        }
    }
}
