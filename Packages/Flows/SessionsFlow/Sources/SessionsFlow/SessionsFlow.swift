import Accounts
import FlowKit
import Foundation
import Primitives

/// The user's sessions: this one and every other, each with what signed in and when, to end
/// one of the others or all of them (a lost laptop, a shared computer).
public actor SessionsFlow: InventoriedFlow {
    /// How the screen was left.
    public enum FlowResult: FlowOutcome {
        /// Back, after ending this many other sessions.
        case ended(sessions: Int)
        /// Back, with no session ended.
        case cancelled
    }

    /// What the flow needs from the app.
    public protocol Dependencies: Sendable {
        var accounts: any AccountsService { get }
        /// Where the user is: the times are shown in it.
        var timeZone: TimeZone { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory { FlowInventory(drawing: SessionsView(), for: SessionsViewModel.examples) }

    private let user: User
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<SessionsAction>

    public init(user: User, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var model = SessionsViewModel(timeZone: dependencies.timeZone)
        var ended = 0
        await load(into: &model)
        return await presenter.run(model.state) { action, view in
            switch action {
            case .chosen(let id):
                model.chosen(id)
            case .tapped(.end):
                guard let session = model.selected else { break }
                ended += await end(&model, on: view) { () throws(AccountsError) in
                    try await dependencies.accounts.endSession(session.id, of: user.id)
                    return (1, "Ended the session of \(session.client).")
                }
            case .tapped(.endOthers):
                ended += await end(&model, on: view) { () throws(AccountsError) in
                    let count = try await dependencies.accounts.endOtherSessions(of: user.id)
                    return (count, count == 1 ? "Ended 1 other session." : "Ended \(count) other sessions.")
                }
            case .back:
                return ended == 0 ? .cancelled : .ended(sessions: ended)
            }
            return nil
        }
    }

    /// Ends sessions by `work`, which says how many and in what words, and reads the list again
    /// (also when one ended elsewhere meanwhile); how many ended (none when refused: the screen
    /// says why).
    private func end(
        _ model: inout SessionsViewModel, on view: ViewActions<SessionsAction>, _ work: () async throws(AccountsError) -> (Int, String)
    ) async -> Int {
        await view.act(&model, reloading: { await load(into: &$0) }, reloadAfter: { $0 == .noSuchSession }, work) ?? 0
    }

    private func load(into model: inout SessionsViewModel) async {
        do throws(AccountsError) {
            model.loaded(try await dependencies.accounts.sessions(of: user.id))
        } catch {
            model.failed(error)
        }
    }
}
