import Accounts
import FlowKit
import Foundation
import Primitives

/// What the sessions screen shows.
struct SessionsViewState: Equatable, Sendable {
    /// Another session, as the list names it.
    struct Other: Equatable, Sendable {
        var id: String
        var label: String
    }

    /// This session in words; nil until the list is read.
    var current: String?
    var others: [Other] = []
    /// The other session chosen to end.
    var selected: String?
    /// Whether the list has been read.
    var loaded = false
    var phase = Phase.idle
    /// What the last change did ("Ended 2 other sessions.").
    var notice: String?
}

/// Turns the user's sessions and what ending them answered into the screen's state.
struct SessionsViewModel: NoticingViewModel {
    /// A state for each thing the screen can show: the flow's coverage inventory is drawn from
    /// these.
    static var examples: [SessionsViewState] {
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        let this = SessionSummary(id: "0123456789abcdef", client: FlowInventory.anyDetail, createdAt: time, lastUsedAt: time, isCurrent: true)
        let other = SessionSummary(id: "fedcba9876543210", client: FlowInventory.anyDetail, createdAt: time, lastUsedAt: time, isCurrent: false)
        var alone = SessionsViewModel(timeZone: .gmt)
        alone.loaded([this])
        var several = SessionsViewModel(timeZone: .gmt)
        several.loaded([this, other])
        var ended = alone
        ended.noticed(FlowInventory.anyDetail)
        var working = several
        working.busy()
        var failed = SessionsViewModel(timeZone: .gmt)
        failed.failed(.storeUnavailable(FlowInventory.anyDetail))
        return [alone.state, several.state, ended.state, working.state, failed.state]
    }

    private(set) var state = SessionsViewState()
    private var sessions: [SessionSummary] = []
    private let timeZone: TimeZone

    init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// The other session chosen, if any.
    var selected: SessionSummary? {
        sessions.first { $0.id == state.selected && !$0.isCurrent }
    }

    mutating func loaded(_ sessions: [SessionSummary]) {
        self.sessions = sessions
        state.loaded = true
        // This one is what the user is looking at: when is what it tells them.
        state.current = sessions.first(where: \.isCurrent).map(times)
        let others = sessions.filter { !$0.isCurrent }
        state.others = others.map { SessionsViewState.Other(id: $0.id, label: describe($0)) }
        if !others.contains(where: { $0.id == state.selected }) { state.selected = others.first?.id }
        state.phase = .idle
    }

    mutating func chosen(_ id: String) {
        state.selected = id
        state.notice = nil
        state.phase = .idle
    }

    static var phase: WritableKeyPath<Self, Phase> { \.state.phase }
    static var notice: WritableKeyPath<Self, String?> { \.state.notice }

    mutating func failed(_ error: AccountsError) {
        state.phase = .failed(error.message)
    }

    /// `flows/0.1.0 (command line), through flows-server, signed in 2027-01-15 08:00, last used 2027-01-15 08:00`.
    private func describe(_ session: SessionSummary) -> String {
        "\(session.client), \(times(session))"
    }

    /// `signed in 2027-01-15 08:00, last used 2027-01-15 08:00`.
    private func times(_ session: SessionSummary) -> String {
        "signed in \(moment(session.createdAt)), last used \(moment(session.lastUsedAt))"
    }

    /// A time as `yyyy-MM-dd HH:mm` in the user's time zone.
    private func moment(_ date: Date) -> String {
        Day.minute(at: date, in: timeZone)
    }
}
