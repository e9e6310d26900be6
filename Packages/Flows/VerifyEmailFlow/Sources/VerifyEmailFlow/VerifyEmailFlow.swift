import Accounts
import FlowKit

/// Proves the signed-in user's email with the code mailed to it (at sign-up, at an email change,
/// or on asking here for a new one). Until then nobody finds them by their email, and they claim
/// no one's contacts.
public actor VerifyEmailFlow: InventoriedFlow {
    /// How the screen was left.
    public enum FlowResult: FlowOutcome {
        /// The email is verified; the user as they are now.
        case verified(User)
        /// The user left with the email unverified (a new code may have been sent).
        case cancelled
    }

    /// What the flow needs from the app.
    public protocol Dependencies: Sendable {
        var accounts: any AccountsService { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory { FlowInventory(drawing: VerifyEmailView(), for: VerifyEmailViewModel.examples) }

    private let user: User
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<VerifyEmailAction>

    public init(user: User, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var model = VerifyEmailViewModel(email: user.email.value)
        let (accounts, id) = (dependencies.accounts, user.id)
        return await presenter.run(model.state) { action, view in
            switch action {
            case .typed(let text):
                model.typed(text)
            case .tapped(.verify):
                guard let code = model.checkedCode() else { break }
                if let verified = await view.submit(&model, { _ throws(AccountsError) in try await accounts.verifyEmail(code: code, of: id) }) {
                    return .verified(verified)
                }
            case .tapped(.sendCode):
                if await view.submit(&model, { _ throws(AccountsError) in try await accounts.sendVerificationCode(to: id) }) != nil {
                    model.sent()
                }
            case .back:
                return .cancelled
            }
            return nil
        }
    }
}
