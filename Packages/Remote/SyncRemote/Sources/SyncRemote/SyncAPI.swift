import AccountsRemote
import Expenses
import ExpensesRemote
import FlowsAPI
import FlowsWire
import Foundation
import FriendsRemote
import GroupsRemote
import OpenAPIRuntime
import Primitives
import PreferencesRemote
import PrimitivesRemote
import Sync

/// The Sync operations of the contract, each declared once: flows-server serves them and
/// ``RemoteSyncService`` calls them.
public enum SyncAPI {
    public typealias Call<Input: Sendable, Output: Sendable> = Endpoint<Input, Output, SyncError>

    public static let pullChanges = Call<PullRequest, SyncPage>(
        "pullChanges", .get, "/sync/changes", request: .query(Wire.pull), response: .json(Wire.syncPage), problems: problems
    )
    public static let pushChanges = Call<[SyncOperation], [SyncOutcome]>(
        "pushChanges", .post, "/sync/push", request: .body(Wire.push), response: .json(Wire.outcomes), problems: problems
    )

    public static let resendChanges = Call<[SyncEntity], Void>(
        "resendChanges", .post, "/sync/again", status: .noContent, request: .body(Wire.resend), response: .none, problems: problems
    )

    /// Sync's errors as the contract's refusals, and back.
    public static let problems = ProblemTable<SyncError>(
        problem: { error in
            switch error {
            case .invalidCursor: APIProblem(.badRequest, .invalidCursor, error.message, details: .init(field: "after"))
            case .cursorExpired: APIProblem(.gone, .cursorExpired, error.message, details: .init(field: "after"))
            case .tooManyFirstPulls(let seconds): .rateLimited(error.message, retryAfter: seconds)
            case .tooManyOperations(let limit):
                APIProblem(.badRequest, .tooManyOperations, error.message, details: .init(field: "/operations", limit: Int64(limit)))
            case .storeUnavailable(let reason), .serverUnreachable(let reason): .storeUnavailable(reason)
            case .signedOut: .unauthenticated(error.message, tokenSent: true)
            }
        },
        failure: { failure in
            switch failure.code {
            case .invalidCursor?: return .invalidCursor
            case .cursorExpired?: return .cursorExpired
            case .rateLimited?:
                if case .refused(_, _, let seconds) = failure { return .tooManyFirstPulls(seconds: seconds ?? 60) }
                return .tooManyFirstPulls(seconds: 60)
            case .tooManyOperations?: if let limit = failure.details?.limit.flatMap(Int.init(exactly:)) { return .tooManyOperations(limit: limit) }
            case .storeUnavailable?: return .storeUnavailable(failure.message)
            case _ where failure.isSignedOut: return .signedOut
            default: break
            }
            return .serverUnreachable(failure.description)
        }
    )
}

/// What a pull asks for: the changes after a cursor (none: from the start), at most `limit`.
public struct PullRequest: Equatable, Sendable {
    public var after: SyncCursor?
    public var limit: Int

    public init(after: SyncCursor?, limit: Int) {
        self.after = after
        self.limit = limit
    }
}

// MARK: - Sync's values in the contract's form

extension Wire {
    static var pull: WireValue<PullRequest, [String: String]> {
        WireValue(
            read: { query, _ throws(APIProblem) in
                let limit = try query["limit"].map { text throws(APIProblem) in
                    guard let number = Int32(text), (1...Int32(SyncPage.largestPage)).contains(number) else {
                        throw .invalidRequest("The query parameter \"limit\" is a whole number from 1 to \(SyncPage.largestPage).", field: "limit")
                    }
                    return Int(number)
                } ?? 100
                let after = try query["after"].map { text throws(APIProblem) in
                    guard text.utf8.count <= 41 else { throw .invalidRequest("The query parameter \"after\" is at most 41 characters.", field: "after") }
                    return SyncCursor(text)
                }
                return PullRequest(after: after, limit: limit)
            },
            write: { request in
                var query = ["limit": String(request.limit)]
                if let after = request.after { query["after"] = after.text }
                return query
            }
        )
    }

    static var syncPage: WireValue<SyncPage, Components.Schemas.SyncPage> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                SyncPage(
                    changes: try syncChange.list().read(try expensesSpelledOut(in: wire.changes, field: "\(field)/changes"), "\(field)/changes"),
                    profiles: try syncProfile.list().read(wire.profiles, "\(field)/profiles"), cursor: SyncCursor(wire.cursor), more: wire.more
                )
            },
            write: { page in
                .init(
                    changes: expensesOnce(in: page.changes.map(syncChange.write)), profiles: page.profiles.map(syncProfile.write), cursor: page.cursor.text,
                    more: page.more
                )
            }
        )
    }

    /// `changes` with each line's expense that is the page's own expense as it is now (most
    /// lines of a first pull) said by `sameExpense` in its place: each expense goes once.
    static func expensesOnce(in changes: [Components.Schemas.SyncChange]) -> [Components.Schemas.SyncChange] {
        let current = pageExpenses(changes)
        guard !current.isEmpty else { return changes }
        return eachLine(in: changes) { line, _ in
            guard let then = line.expense, current[line.activity.subject] == then else { return }
            line.expense = nil
            line.sameExpense = true
        }
    }

    /// `changes` with each line that says `sameExpense` given the page's expense it names; a
    /// line naming one the page does not bring is refused.
    static func expensesSpelledOut(in changes: [Components.Schemas.SyncChange], field: String) throws(APIProblem) -> [Components.Schemas.SyncChange] {
        guard changes.contains(where: { $0.activity?.sameExpense == true || $0.lines?.contains { $0.sameExpense == true } == true }) else { return changes }
        let current = pageExpenses(changes)
        return try eachLine(in: changes) { line, place throws(APIProblem) in
            guard line.sameExpense == true else { return }
            guard let expense = current[line.activity.subject] else {
                let at = "\(field)/\(place())"
                throw .invalidRequest("\(at)/sameExpense names an expense the page does not bring.", field: "\(at)/sameExpense")
            }
            line.expense = expense
            line.sameExpense = nil
        }
    }

    /// `changes` with `visit` applied to each of their lines of activity (a change's own, and
    /// an expense's `lines`), each told where it is in the changes when it asks.
    private static func eachLine<Failure: Error>(
        in changes: [Components.Schemas.SyncChange], _ visit: (inout Components.Schemas.ActivityLine, () -> String) throws(Failure) -> Void
    ) throws(Failure) -> [Components.Schemas.SyncChange] {
        var changes = changes
        for index in changes.indices {
            if var line = changes[index].activity {
                try visit(&line) { "\(index)/activity" }
                changes[index].activity = line
            }
            if var lines = changes[index].lines, !lines.isEmpty {
                for each in lines.indices { try visit(&lines[each]) { "\(index)/lines/\(each)" } }
                changes[index].lines = lines
            }
        }
        return changes
    }

    /// The expenses a page brings, as they are now, by id.
    private static func pageExpenses(_ changes: [Components.Schemas.SyncChange]) -> [String: Components.Schemas.Expense] {
        var current: [String: Components.Schemas.Expense] = [:]
        for change in changes where change.kind == .expense {
            if let expense = change.expense { current[change.id] = expense }
        }
        return current
    }

    static var activityLine: WireValue<ActivityLine, Components.Schemas.ActivityLine> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                let entry = wire.activity
                guard let kind = Activity.Kind(rawValue: entry.kind.rawValue) else {
                    throw .invalidRequest("\(field)/activity/kind is not a kind this app knows.", field: "\(field)/activity/kind")
                }
                return ActivityLine(
                    id: wire.id,
                    activity: Activity(kind: kind, actor: UserID(rawValue: entry.actor), subject: ExpenseID(rawValue: entry.subject), summary: entry.summary, at: entry.at),
                    people: wire.people.map(UserID.init(rawValue:)),
                    expense: try wire.expense.map { expense throws(APIProblem) in try Wire.expense.read(expense, "\(field)/expense") },
                    payment: try wire.payment.map { payment throws(APIProblem) in try Wire.settlement.read(payment, "\(field)/payment") }
                )
            },
            write: { line in
                let activity = line.activity
                return .init(
                    id: line.id,
                    activity: .init(
                        kind: Components.Schemas.ActivityKind(rawValue: activity.kind.rawValue) ?? .edited, actor: activity.actor.rawValue,
                        subject: activity.subject.rawValue, summary: activity.summary, at: activity.at
                    ),
                    people: line.people.map(\.rawValue), expense: line.expense.map(Wire.expense.write), payment: line.payment.map(Wire.settlement.write)
                )
            }
        )
    }

    static var keptSeries: WireValue<KeptSeries, Components.Schemas.SyncSeries> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                KeptSeries(
                    series: try Wire.series.read(wire.series, "\(field)/series"), template: try Wire.expense.read(wire.template, "\(field)/template"),
                    madeAt: wire.madeAt,
                    occurrences: try wire.occurrences.enumerated().map { index, occurrence throws(APIProblem) in
                        KeptSeries.Occurrence(
                            day: try day.read(occurrence.day, "\(field)/occurrences/\(index)/day"), expense: ExpenseID(rawValue: occurrence.expense)
                        )
                    }
                )
            },
            write: { kept in
                .init(
                    series: Wire.series.write(kept.series), template: Wire.expense.write(kept.template), madeAt: kept.madeAt,
                    occurrences: kept.occurrences.map { .init(day: $0.day.description, expense: $0.expense.rawValue) }
                )
            }
        )
    }

    static var syncProfile: WireValue<SyncProfile, Components.Schemas.SyncProfile> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                SyncProfile(
                    PublicProfile(id: try userID.read(wire.id, "\(field)/id"), name: try displayName.read(wire.name, "\(field)/name")),
                    avatar: try wire.avatar.map { avatar throws(APIProblem) in try Wire.avatar.read(avatar, "\(field)/avatar") }
                )
            },
            write: { .init(id: $0.profile.id.rawValue, name: $0.profile.name.value, avatar: $0.avatar.map(Wire.avatar.write)) }
        )
    }

    static var syncChange: WireValue<SyncChange, Components.Schemas.SyncChange> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                guard let kind = SyncKind(rawValue: wire.kind.rawValue) else { throw .invalidRequest("\(field)/kind is not a kind this app knows.", field: "\(field)/kind") }
                if wire.removed == true { return SyncChange(kind: kind, id: wire.id, value: nil) }
                let value: SyncValue? =
                    switch kind {
                    case .expense:
                        try wire.expense.map { expense throws(APIProblem) in
                            .expense(
                                SyncedExpense(
                                    try Wire.expense.read(expense, "\(field)/expense"),
                                    history: try wire.history.map { history throws(APIProblem) in try Wire.expenseHistory.read(history, "\(field)/history") } ?? [],
                                    comments: try wire.comments.map { comments throws(APIProblem) in try Wire.commentList.read(comments, "\(field)/comments") } ?? [],
                                    deleted: wire.deleted == true,
                                    lines: try wire.lines.map { lines throws(APIProblem) in
                                        try lines.enumerated().map { index, line throws(APIProblem) in try activityLine.read(line, "\(field)/lines/\(index)") }
                                    } ?? []
                                )
                            )
                        }
                    case .payment:
                        try wire.payment.map { payment throws(APIProblem) in
                            .payment(
                                SyncedPayment(
                                    try Wire.settlement.read(payment, "\(field)/payment"),
                                    history: try wire.paymentHistory.map { history throws(APIProblem) in
                                        try Wire.paymentHistory.read(history, "\(field)/paymentHistory")
                                    } ?? []
                                )
                            )
                        }
                    case .friend: try wire.friend.map { friend throws(APIProblem) in .friend(try Wire.friend.read(friend, "\(field)/friend")) }
                    case .requests:
                        try wire.requests.map { requests throws(APIProblem) in .requests(try Wire.friendRequests.read(requests, "\(field)/requests")) }
                    case .group: try wire.group.map { group throws(APIProblem) in .group(try Wire.group.read(group, "\(field)/group")) }
                    case .account: try wire.account.map { user throws(APIProblem) in .account(try Wire.user.read(user, "\(field)/account")) }
                    case .preferences:
                        try wire.preferences.map { preferences throws(APIProblem) in
                            .preferences(try Wire.preferences.read(preferences, "\(field)/preferences"))
                        }
                    case .activity: try wire.activity.map { line throws(APIProblem) in .activity(try activityLine.read(line, "\(field)/activity")) }
                    case .series: try wire.series.map { kept throws(APIProblem) in .series(try keptSeries.read(kept, "\(field)/series")) }
                    }
                guard let value else { throw .invalidRequest("\(field) has neither its \(kind.rawValue) nor removed.", field: field) }
                return SyncChange(kind: kind, id: wire.id, value: value)
            },
            write: { change in
                var wire = Components.Schemas.SyncChange(kind: .init(rawValue: change.kind.rawValue) ?? .expense, id: change.id)
                switch change.value {
                case nil: wire.removed = true
                case .expense(let synced)?:
                    wire.expense = Wire.expense.write(synced.expense)
                    wire.history = Wire.expenseHistory.write(synced.history)
                    wire.comments = Wire.commentList.write(synced.comments)
                    if synced.deleted { wire.deleted = true }
                    wire.lines = synced.lines.map(activityLine.write)
                case .payment(let synced)?:
                    wire.payment = Wire.settlement.write(synced.payment)
                    wire.paymentHistory = Wire.paymentHistory.write(synced.history)
                case .friend(let friend)?: wire.friend = Wire.friend.write(friend)
                case .requests(let requests)?: wire.requests = Wire.friendRequests.write(requests)
                case .group(let group)?: wire.group = Wire.group.write(group)
                case .account(let user)?: wire.account = Wire.user.write(user)
                case .preferences(let preferences)?: wire.preferences = Wire.preferences.write(preferences)
                case .activity(let line)?: wire.activity = activityLine.write(line)
                case .series(let kept)?: wire.series = keptSeries.write(kept)
                }
                return wire
            }
        )
    }
}

extension Wire {
    static var resend: WireValue<[SyncEntity], Components.Schemas.ResendRequest> {
        WireValue(
            read: { wire, _ throws(APIProblem) in
                guard wire.entities.count <= SyncEntity.largestResend else {
                    throw .invalidRequest("At most \(SyncEntity.largestResend) entities at once.", field: "/entities")
                }
                for (index, entity) in wire.entities.enumerated() where !(1...200).contains(entity.id.count) {
                    throw .invalidRequest("An entity's id has 1 to 200 characters.", field: "/entities/\(index)/id")
                }
                return wire.entities.map { SyncEntity(kind: SyncKind(rawValue: $0.kind.rawValue) ?? .expense, id: $0.id) }
            },
            write: { entities in
                .init(entities: entities.map { .init(kind: .init(rawValue: $0.kind.rawValue) ?? .expense, id: $0.id) })
            }
        )
    }

    static var push: WireValue<[SyncOperation], Components.Schemas.PushRequest> {
        WireValue(
            read: { wire, _ throws(APIProblem) in
                var operations: [SyncOperation] = []
                for (index, operation) in wire.operations.enumerated() {
                    let body = try operation.body.map { value throws(APIProblem) in
                        do { return Array(try WireJSON.encode(value)) } catch {
                            throw .invalidRequest("The body of operation \(index) is not JSON.", field: "/operations/\(index)/body")
                        }
                    }
                    operations.append(
                        SyncOperation(
                            key: operation.key, operation: operation.operation, path: operation.path?.additionalProperties ?? [:],
                            query: operation.query?.additionalProperties ?? [:], body: body, version: operation.version.flatMap(Int.init(exactly:))
                        )
                    )
                }
                return operations
            },
            write: { operations in
                .init(operations: operations.map { operation in
                    .init(
                        key: operation.key, operation: operation.operation,
                        path: operation.path.isEmpty ? nil : .init(additionalProperties: operation.path),
                        query: operation.query.isEmpty ? nil : .init(additionalProperties: operation.query),
                        body: operation.body.flatMap { try? WireJSON.decoder.decode(OpenAPIValueContainer.self, from: Data($0)) },
                        version: operation.version.map(Int64.init)
                    )
                })
            }
        )
    }

    static var outcomes: WireValue<[SyncOutcome], Components.Schemas.PushAnswer> {
        WireValue(
            read: { wire, _ in
                wire.outcomes.map { outcome in
                    let answer: [UInt8]? =
                        if let problem = outcome.problem { (try? WireJSON.encode(problem)).map(Array.init) }
                        else { outcome.answer.flatMap { try? WireJSON.encode($0) }.map(Array.init) }
                    return SyncOutcome(
                        key: outcome.key, kind: SyncOutcome.Kind(rawValue: outcome.outcome.rawValue) ?? .refused, status: Int(outcome.status), answer: answer
                    )
                }
            },
            write: { outcomes in
                .init(outcomes: outcomes.map { outcome in
                    let bytes = outcome.answer.map { Data($0) }
                    let applied = outcome.kind == .applied
                    return .init(
                        key: outcome.key, outcome: .init(rawValue: outcome.kind.rawValue) ?? .refused, status: Int32(clamping: outcome.status),
                        answer: applied ? bytes.flatMap { try? WireJSON.decoder.decode(OpenAPIValueContainer.self, from: $0) } : nil,
                        problem: applied ? nil : bytes.flatMap { try? WireJSON.decoder.decode(Components.Schemas.Problem.self, from: $0) }
                    )
                })
            }
        )
    }
}
