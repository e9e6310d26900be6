import Expenses
import FlowKit
import Foundation
import Primitives
import Sync

extension SyncFlow.Dependencies {
    /// No replica: the embedded store's services, or a server's over HTTP alone.
    public var replicaChanges: (any ReplicaChanges)? { nil }
}

/// What the changes made on this machine for the server came to (docs/sync.md): when the
/// replica last synced, whether the server can be reached, and each write the server has not
/// applied: waiting, refused with its reason (to drop), or in conflict with a change made
/// meanwhile (keep theirs, or make yours again on top). Syncs on demand.
public actor SyncFlow: InventoriedFlow {
    /// How the screen was left.
    public enum FlowResult: FlowOutcome {
        /// Back to where it was opened.
        case closed
        case cancelled
    }

    /// What the flow needs from the app.
    public protocol Dependencies: Sendable {
        /// The replica the screens read and the writes made on it; nil on the embedded store,
        /// which has nothing to sync.
        var replicaChanges: (any ReplicaChanges)? { get }
        /// Where the user is: the times are shown in it.
        var timeZone: TimeZone { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory { FlowInventory(drawing: SyncView(), for: SyncViewModel.examples) }

    private let user: UserID
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<SyncAction>

    public init(user: UserID, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var model = SyncViewModel(timeZone: dependencies.timeZone)
        await load(into: &model)
        return await presenter.run(model.state) { action, view in
            switch action {
            case .chosen(let id):
                model.chosen(id)
            case .tapped(.syncNow):
                guard let replica = dependencies.replicaChanges else { break }
                _ = await view.act(&model, reloading: { await load(into: &$0) }) { () throws(SyncTrouble) in
                    switch await replica.sync(for: user) {
                    case .success(let report): ((), SyncViewModel.sentence(report))
                    // Nothing was lost: what waits goes at the next sync.
                    case .failure(.serverUnreachable(let reason)): throw SyncTrouble("The server cannot be reached: \(reason). What you changed waits here; the next sync sends it.")
                    case .failure(let error): throw SyncTrouble(error.message)
                    }
                }
            case .drop:
                guard let replica = dependencies.replicaChanges, let write = model.selected else { break }
                _ = await view.act(&model, reloading: { await load(into: &$0) }) { () throws(SyncTrouble) in
                    let dropped: Bool
                    do throws(SyncError) { dropped = try await replica.drop(write.key, for: user) } catch { throw SyncTrouble(error.message) }
                    guard dropped else { throw SyncTrouble("\(write.summary) still waits for the server, which answers it at the next sync.") }
                    let said = write.explanation == nil ? "Dropped \(write.summary): it will not be sent." : "Kept theirs: \(write.summary) is dropped."
                    return ((), said + " What it changed here comes back as the server has it at the next sync.")
                }
            case .tapped(.applyMine):
                guard let replica = dependencies.replicaChanges, let write = model.selected else { break }
                _ = await view.act(&model, reloading: { await load(into: &$0) }) { () throws(SyncTrouble) in
                    let edited: Expense?
                    do throws(ExpensesError) { edited = try await replica.applyMine(write.key, for: user) } catch { throw SyncTrouble(error.message) }
                    guard let edited else { throw SyncTrouble("\(write.summary) is no longer in conflict.") }
                    return ((), "Made yours again on top of theirs: \(edited.description), \(edited.amount).")
                }
            case .refresh:
                await load(into: &model)
            case .back:
                return .closed
            case .cancel:
                return .cancelled
            }
            return nil
        }
    }

    /// Reads the replica's status and its writes again.
    private func load(into model: inout SyncViewModel) async {
        guard let replica = dependencies.replicaChanges else { return model.noReplica() }
        let status = await replica.status(of: user)
        do throws(SyncError) {
            model.loaded(status, try await replica.writes(of: user))
        } catch {
            model.failed(SyncTrouble(error.message))
        }
    }
}

/// Why syncing, dropping or making a write again did not happen, in words.
struct SyncTrouble: Error, Equatable {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
