import FlowKit
import Foundation
import Primitives
import Sync

/// What the Sync screen shows.
struct SyncViewState: Equatable, Sendable {
    /// One write the server has not applied, as the list shows it.
    struct Change: Equatable, Sendable {
        enum State: Equatable, Sendable {
            case waiting
            case refused
            case conflict
        }

        var id: ElementID
        var label: String
        var state: State
        /// What is said of it once chosen: why, and what the user can do.
        var detail: [String]
    }

    /// Whether this machine keeps a replica of a server (false on the embedded store).
    var hasReplica = true
    /// How up to date the replica is, and what waits, in sentences.
    var lines: [String] = []
    var changes: [Change] = []
    var selected: ElementID?
    var phase = Phase.idle
    /// What the last act did ("Pushed 2 changes: all synced.").
    var notice: String?
}

/// Turns the replica's status, its writes and what syncing answered into the Sync screen's state.
struct SyncViewModel: NoticingViewModel {
    /// A state for each thing the screen can show: the flow's coverage inventory is drawn from
    /// these.
    static var examples: [SyncViewState] {
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        let detail = FlowInventory.anyDetail
        let status = ReplicaStatus(lastSynced: time, offlineSince: nil)
        let waiting = PendingWrite(key: "a", operation: "addExpense", summary: detail, made: time, outcome: nil, reason: nil, explanation: nil)
        let refused = PendingWrite(key: "b", operation: "addExpense", summary: detail, made: time, outcome: .refused, reason: detail, explanation: nil)
        let conflict = PendingWrite(key: "c", operation: "editExpense", summary: detail, made: time, outcome: .conflict, reason: detail, explanation: detail)
        var none = SyncViewModel(timeZone: .gmt)
        none.noReplica()
        var synced = SyncViewModel(timeZone: .gmt)
        synced.loaded(status, [])
        var never = SyncViewModel(timeZone: .gmt)
        never.loaded(ReplicaStatus(lastSynced: nil, offlineSince: time, failure: nil), [])
        var failing = SyncViewModel(timeZone: .gmt)
        failing.loaded(ReplicaStatus(lastSynced: time, offlineSince: nil, failure: detail), [])
        var offline = SyncViewModel(timeZone: .gmt)
        offline.loaded(ReplicaStatus(lastSynced: time, offlineSince: time, waiting: 1), [waiting, refused, conflict])
        var refusedChosen = offline
        refusedChosen.chosen("change-2")
        var conflictChosen = offline
        conflictChosen.chosen("change-3")
        var working = offline
        working.busy()
        var said = synced
        said.noticed(detail)
        var failed = synced
        failed.failed(SyncTrouble(detail))
        return [none, synced, never, failing, offline, refusedChosen, conflictChosen, working, said, failed].map(\.state)
    }

    private(set) var state = SyncViewState()
    /// The writes as listed, in the order of `state.changes`.
    private var writes: [PendingWrite] = []
    private let timeZone: TimeZone

    init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// The write chosen, if any.
    var selected: PendingWrite? {
        zip(state.changes, writes).first { $0.0.id == state.selected }?.1
    }

    /// On the embedded store: nothing is kept for a server, so nothing waits.
    mutating func noReplica() {
        state.hasReplica = false
        state.lines = ["This machine keeps no copy of a server: what you do is written here at once, so there is nothing to sync."]
    }

    mutating func loaded(_ status: ReplicaStatus?, _ writes: [PendingWrite]) {
        self.writes = writes
        var lines: [String] = []
        let synced = status?.lastSynced.map { "Last synced \(Day.minute(at: $0, in: timeZone))." } ?? "Not synced yet."
        if let since = status?.offlineSince {
            lines.append("\(synced) The server cannot be reached since \(Day.minute(at: since, in: timeZone)): what you change waits here until it can.")
        } else if let failure = status?.failure {
            lines.append("\(synced) The last sync failed: \(failure)")
        } else {
            lines.append(synced)
        }
        let waiting = writes.count { $0.outcome == nil }
        let turnedDown = writes.count - waiting
        if writes.isEmpty {
            lines.append("All your changes are on the server.")
        } else {
            var parts: [String] = []
            if waiting > 0 { parts.append("\(Self.changes(waiting)) \(waiting == 1 ? "waits" : "wait") for the server") }
            if turnedDown > 0 { parts.append("\(Self.changes(turnedDown)) the server did not take: choose one to see why and what you can do") }
            lines.append(parts.joined(separator: "; ") + ".")
        }
        state.lines = lines
        state.changes = writes.enumerated().map { index, write in change(write, id: ElementID("change-\(index + 1)")) }
        if !state.changes.contains(where: { $0.id == state.selected }) {
            // The first that asks something of the user, else the oldest.
            state.selected = state.changes.first { $0.state != .waiting }?.id ?? state.changes.first?.id
        }
        state.phase = .idle
    }

    mutating func chosen(_ id: ElementID) {
        guard state.changes.contains(where: { $0.id == id }) else { return }
        state.selected = id
        state.notice = nil
        state.phase = .idle
    }

    static var phase: WritableKeyPath<Self, Phase> { \.state.phase }
    static var notice: WritableKeyPath<Self, String?> { \.state.notice }

    mutating func failed(_ error: SyncTrouble) {
        state.phase = .failed(error.message)
    }

    /// What a sync did, in words: `Pushed 2 changes; 1 was not taken (listed below). Pulled 3
    /// changes: up to date.`
    static func sentence(_ report: SyncReport) -> String {
        let push = report.push
        var parts: [String] = []
        if push.pushed + push.refused + push.conflicts + push.waiting > 0 {
            var pushed = "Pushed \(changes(push.pushed))"
            let turnedDown = push.refused + push.conflicts
            if turnedDown > 0 { pushed += "; \(turnedDown == 1 ? "1 was" : "\(turnedDown) were") not taken (listed below)" }
            if push.waiting > 0 { pushed += "; \(changes(push.waiting)) still wait: the server stopped answering" }
            parts.append(pushed + ".")
        }
        if push.waiting == 0 {
            let pull = report.pull
            parts.append(pull.changes == 0 ? "Nothing new on the server: up to date." : "Pulled \(changes(pull.changes)): up to date.")
        }
        return parts.joined(separator: " ")
    }

    /// `write` as the list shows it.
    private func change(_ write: PendingWrite, id: ElementID) -> SyncViewState.Change {
        let made = "made \(Day.minute(at: write.made, in: timeZone))"
        switch write.outcome {
        case nil:
            return .init(id: id, label: "Waiting: \(write.summary) (\(made))", state: .waiting, detail: ["It goes to the server at the next sync."])
        case .conflict? where write.explanation != nil:
            return .init(
                id: id, label: "In conflict: \(write.summary) (\(made))", state: .conflict,
                detail: [
                    write.explanation ?? "",
                    "Keep theirs drops yours; make mine again on top changes what you changed, as you left it, on the expense as it is now.",
                ]
            )
        case .applied?, .refused?, .conflict?:
            return .init(
                id: id, label: "Not synced: \(write.summary) (\(made))", state: .refused,
                detail: [
                    "The server did not take it: \(write.reason ?? "it gave no reason.")",
                    "Drop it to take it off this machine: what it changed here comes back as the server has it.",
                ]
            )
        }
    }

    /// "1 change", "3 changes".
    private static func changes(_ count: Int) -> String { count == 1 ? "1 change" : "\(count) changes" }
}
