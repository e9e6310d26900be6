import Expenses
import ExpensesData
import Foundation
import Primitives

/// The expenses service of the app, on top of an ``ExpensesStore``.
///
/// Each write is one store transaction: the expense rows, the balance changes and the activity
/// line are written together or not at all.
public struct LiveExpensesService: ExpensesService {
    let store: any ExpensesStore
    private let people: any PeopleDirectory
    private let groups: any GroupMembership
    let random: any RandomSource
    let now: @Sendable () -> Date

    /// - Parameters:
    ///   - people: whom each user may name; an expense or a payment naming anyone else is refused.
    ///   - groups: who is in each group; within a group, its members may name each other.
    public init(
        store: any ExpensesStore,
        people: any PeopleDirectory,
        groups: any GroupMembership = NoGroups(),
        random: any RandomSource = SystemRandomSource(),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.people = people
        self.groups = groups
        self.random = random
        self.now = now
    }

    public func add(_ draft: ExpenseDraft, as id: ExpenseID?, by user: UserID) async throws(ExpensesError) -> Expense {
        let expense = try checked(id ?? ExpenseID(rawValue: UserID.random(using: random).rawValue), draft)
        guard expense.people.contains(user) else { throw .notInExpense }
        try await checkMayName(expense.people, in: expense.group, by: user)
        let stored = StoredExpense(expense, rule: draft.rule, createdBy: user, createdAt: now().timeIntervalSince1970)
        let addition = ExpenseAddition(
            expense: stored,
            balanceChanges: expense.balanceDeltas.map(BalanceChange.init),
            activity: record(.added, expense, by: user, kept: stored),
            balanceLimit: LedgerLimits.maximumAmount
        )
        return try await storing { () async throws -> Expense in
            do {
                if let id {
                    // An id made elsewhere is checked inside the write that takes it (and written
                    // alone: a store that adds several together would refuse them all with it).
                    // One the same user added under it already is this write again (sent once
                    // more after its answer was lost, under another key): it answers as it is now.
                    let taken = try await store.write { db -> (mine: Expense?, taken: Bool) in
                        if let kept = try db.expense(id: id.rawValue), kept.createdBy == user.rawValue { return (try kept.expense(), true) }
                        guard try !Self.isHeld(id.rawValue, in: db) else { return (nil, true) }
                        try db.add(addition)
                        return (nil, false)
                    }
                    if let mine = taken.mine { return mine }
                    guard !taken.taken else { throw ExpensesError.idTaken(id) }
                } else {
                    try await store.add(addition)
                }
            } catch ExpensesDataError.outOfRange {
                // An expense is in one currency: every balance it moves is in it.
                throw ExpensesError.beyondLimit(expense.amount.currency)
            }
            return expense
        }
    }

    public func edit(_ id: ExpenseID, to draft: ExpenseDraft, from version: Int, by user: UserID) async throws(ExpensesError) -> Expense {
        let checkedDraft = try checked(id, draft)
        // Strangers to the user may stay only if the expense already names them (checked against
        // the expense as it is inside the write): the people in an expense trust each other with
        // it, and each sees every change in their activity.
        // Within a group, its members may name each other; outside one, strangers may stay only
        // where they were.
        let strangers: Set<UserID>
        if let group = checkedDraft.group {
            try await checkMembers(checkedDraft.people, of: group, seenBy: user)
            strangers = []
        } else {
            strangers = try await self.strangers(among: checkedDraft.people, to: user)
        }
        try await checkNoBlock(among: checkedDraft.people.union(try await people(in: id)), for: user)
        let createdAt = now().timeIntervalSince1970
        let activity = record(.edited, checkedDraft, by: user)
        return try await storing {
            try await store.write { db in
                // One not in it is told what one is told of an id that does not exist.
                guard let old = try db.expense(id: id.rawValue) else { throw ExpensesError.notFound(id) }
                let previous = try old.expense()
                guard previous.people.contains(user) else { throw ExpensesError.notFound(id) }
                // An edit made from an older copy would undo a change its author never saw.
                guard previous.version == version else { throw ExpensesError.changedSince(id, version: previous.version) }
                let (next, overflow) = previous.version.addingReportingOverflow(1)
                guard !overflow else { throw ExpensesError.refused("an expense has at most \(Int.max) versions") }
                let updated = checkedDraft.at(version: next)
                // Someone in it stays in it.
                guard updated.people.contains(user) else { throw ExpensesError.notInExpense }
                let newcomers = strangers.subtracting(previous.people)
                guard newcomers.isEmpty else { throw ExpensesError.unknownPeople(newcomers.sorted { $0.rawValue < $1.rawValue }) }
                try apply(try old.balanceDeltas().map(\.reversed), group: old.group, in: db)
                try db.deleteExpense(id: id.rawValue)
                let stored = StoredExpense(updated, rule: draft.rule, createdBy: UserID(rawValue: old.createdBy), createdAt: createdAt)
                try db.insert(stored)
                try apply(updated.balanceDeltas, group: stored.group, in: db)
                try db.insert(ActivityRecord(
                    id: activity.id, at: activity.at, actor: activity.actor, kind: activity.kind, subject: activity.subject,
                    summary: activity.summary, people: activity.people + previous.people.map(\.rawValue), snapshot: Self.snapshot(stored)
                ))
                return updated
            }
        }
    }

    public func delete(_ id: ExpenseID, from version: Int, by user: UserID) async throws(ExpensesError) {
        try await checkNoBlock(among: try await people(in: id), for: user)
        let at = now().timeIntervalSince1970
        let activityID = UserID.random(using: random).rawValue
        try await storing {
            try await store.write { db in
                guard let old = try db.expense(id: id.rawValue) else { throw ExpensesError.notFound(id) }
                let previous = try old.expense()
                guard previous.people.contains(user) else { throw ExpensesError.notFound(id) }
                guard previous.version == version else { throw ExpensesError.changedSince(id, version: previous.version) }
                try apply(try old.balanceDeltas().map(\.reversed), group: old.group, in: db)
                try db.moveToDeleted(id: id.rawValue, by: user.rawValue, at: at)
                try db.insert(ActivityRecord(
                    id: activityID, at: at, actor: user.rawValue, kind: SaveFormatter.text(Activity.Kind.deleted), subject: id.rawValue,
                    summary: previous.summary, people: previous.people.map(\.rawValue), snapshot: Self.snapshot(old)
                ))
            }
        }
    }

    public func restore(_ id: ExpenseID, by user: UserID) async throws(ExpensesError) -> Expense {
        let at = now().timeIntervalSince1970
        let activityID = UserID.random(using: random).rawValue
        let deleted = try await storing { try await store.read { db in try db.deletedExpense(id: id.rawValue)?.expense() } }
        guard let deleted, deleted.people.contains(user) else { throw .notFound(id) }
        // Restoring writes it again: everyone in it must be someone the user may name now, as
        // for a new expense (a friendship may have ended, or a block begun, since).
        try await checkMayName(deleted.people, in: deleted.group, by: user)
        try await checkNoBlock(among: deleted.people, for: user)
        return try await storing {
            try await store.write { db in
                // Read again inside the write: someone else may have restored it meanwhile.
                guard let stored = try db.deletedExpense(id: id.rawValue) else { throw ExpensesError.notFound(id) }
                let expense = try stored.expense()
                guard expense.people.contains(user) else { throw ExpensesError.notFound(id) }
                try db.restoreDeleted(id: id.rawValue)
                try apply(try stored.balanceDeltas(), group: stored.group, in: db)
                try db.insert(ActivityRecord(
                    id: activityID, at: at, actor: user.rawValue, kind: SaveFormatter.text(Activity.Kind.restored), subject: id.rawValue,
                    summary: expense.summary, people: expense.people.map(\.rawValue), snapshot: Self.snapshot(stored)
                ))
                return expense
            }
        }
    }

    public func history(of id: ExpenseID, for user: UserID) async throws(ExpensesError) -> [ExpenseChange] {
        let (current, records) = try await storing {
            try await store.read { db in
                (try (db.expense(id: id.rawValue) ?? db.deletedExpense(id: id.rawValue))?.expense(), try db.changes(ofExpense: id.rawValue))
            }
        }
        // Only someone in it now sees how it came to be, as only they see it.
        guard let current, current.people.contains(user) else { throw .notFound(id) }
        let decoder = JSONDecoder()
        var changes: [ExpenseChange] = []
        for record in records {
            guard let kind = try? SaveFormatter.value(Activity.Kind.self, from: record.kind) else {
                throw .storeUnavailable("the activity \(record.id) has an unknown kind")
            }
            guard [.added, .edited, .deleted, .restored].contains(kind) else { continue }
            var expense: Expense?
            if let snapshot = record.snapshot {
                do {
                    expense = try decoder.decode(StoredExpense.self, from: Data(snapshot.utf8)).expense()
                } catch {
                    throw .storeUnavailable("the change \(record.id) keeps a damaged expense")
                }
            }
            changes.append(ExpenseChange(kind: kind, by: UserID(rawValue: record.actor), at: Date(timeIntervalSince1970: record.at), expense: expense))
        }
        return changes
    }

    public func deletedExpenses(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense] {
        try await storing {
            try await store.read { db in
                try db.deletedExpenseIDs(of: user.rawValue, offset: page.offset, limit: page.limit).compactMap { try db.deletedExpense(id: $0)?.expense() }
            }
        }
    }

    public func expense(_ id: ExpenseID, for user: UserID) async throws(ExpensesError) -> Expense? {
        let found = try await storing {
            try await store.read { db in try db.expense(id: id.rawValue)?.expense() }
        }
        return found.flatMap { $0.people.contains(user) ? $0 : nil }
    }

    public func settle(from: UserID, to: UserID, amount: Money, day: Day, in group: GroupID?, as given: ExpenseID?, by user: UserID) async throws(ExpensesError)
        -> Settlement
    {
        if let reason = Settlement.problem(from: from, to: to, amount: amount, by: user) { throw .invalidSettlement(reason) }
        // Someone who is not the user's friend or contact (who shared an expense someone else
        // added) may be paid only what is owed them, in the currency, by whoever owes it
        // (checked inside the write): a payment never leaves a stranger owing more. Within a
        // group, its members may pay each other.
        let other = user == from ? to : from
        try await checkNoBlock(among: [other], for: user)
        let stranger: Bool
        if let group {
            try await checkMembers([from, to], of: group, seenBy: user)
            stranger = false
        } else {
            stranger = try await !strangers(among: [other], to: user).isEmpty
        }
        let groupKey = group?.rawValue
        let id = given ?? ExpenseID(rawValue: UserID.random(using: random).rawValue)
        let at = now().timeIntervalSince1970
        let activityID = UserID.random(using: random).rawValue
        let code = SaveFormatter.text(amount.currency)
        return try await storing {
            try await store.write { db in
                if given != nil, let again = try Self.paymentAgain(id, by: user, in: db) { return again }
                // The balances it moves are worked out from the balances as they are inside the write:
                // within a group, its balances there.
                let balances = { (person: UserID) throws -> [BalanceRecord] in
                    guard let groupKey else { return try db.balances(of: person.rawValue) }
                    return try db.groupBalances(of: person.rawValue).filter { $0.group == groupKey }.map(\.pair)
                }
                let payerBalances = try Self.owed(in: balances(from), currency: code, to: from)
                if stranger {
                    let owed = -payerBalances[to, default: 0]
                    guard owed > 0 else { throw ExpensesError.unknownPeople([other]) }
                    guard amount.minorUnits <= owed else {
                        throw ExpensesError.invalidSettlement(
                            "With someone who is not your friend or contact, a payment settles at most what is owed: \(Money(minorUnits: owed, currency: amount.currency))."
                        )
                    }
                }
                let legs = PaymentRouting.legs(
                    from: from, to: to, amount: amount,
                    payerOwes: payerBalances.compactMapValues { $0 < 0 ? -$0 : nil },
                    owedToPayee: try Self.owed(in: balances(to), currency: code, to: to).filter { $0.value > 0 }
                )
                let direct = legs.count == 1 && legs[0].creditor == from && legs[0].debtor == to
                let settlement = Settlement(id: id, from: from, to: to, amount: amount, day: day, legs: direct ? [] : legs, group: group)
                let record = SettlementRecord(
                    id: id.rawValue, from: from.rawValue, to: to.rawValue, amount: amount.minorUnits, currency: code, day: day.description,
                    createdBy: user.rawValue, createdAt: at,
                    legs: settlement.legs.map { SettlementRecord.Leg(creditor: $0.creditor.rawValue, debtor: $0.debtor.rawValue, amount: $0.amount.minorUnits) },
                    group: groupKey
                )
                try db.insert(record)
                try apply(settlement.balanceDeltas, group: groupKey, in: db)
                try db.insert(ActivityRecord(
                    id: activityID, at: at, actor: user.rawValue, kind: SaveFormatter.text(Activity.Kind.settled),
                    subject: id.rawValue, summary: settlement.summary(), people: ([from, to] + settlement.through).map(\.rawValue),
                    snapshot: try Self.kept(record)
                ))
                return settlement
            }
        }
    }

    public func convert(
        _ balance: Money, with other: UserID, at rate: ExchangeRate, source: String, day: Day, in group: GroupID?, as given: ExpenseID?, by user: UserID
    ) async throws(ExpensesError) -> Settlement {
        guard other != user else { throw .invalidSettlement("Someone cannot pay themselves.") }
        if let problem = Conversion.problem(source: source) { throw .invalidSettlement(problem) }
        let converted = try Conversion.converting(balance, at: rate)
        try await checkNoBlock(among: [other], for: user)
        try await checkMayName([other], in: group, by: user)
        // Whoever owes pays: the other person when they owe the user.
        let (from, to) = balance.isPositive ? (other, user) : (user, other)
        let amount = Money(minorUnits: Int64(clamping: balance.minorUnits.magnitude), currency: balance.currency)
        let conversion = Conversion(amount: converted, rate: rate, source: source)
        let settlement = Settlement(
            id: given ?? ExpenseID(rawValue: UserID.random(using: random).rawValue), from: from, to: to, amount: amount, day: day, group: group,
            conversion: conversion
        )
        let at = now().timeIntervalSince1970
        let activityID = UserID.random(using: random).rawValue
        let record = SettlementRecord(
            id: settlement.id.rawValue, from: from.rawValue, to: to.rawValue, amount: amount.minorUnits, currency: SaveFormatter.text(amount.currency),
            day: day.description, createdBy: user.rawValue, createdAt: at, group: group?.rawValue,
            conversion: SettlementRecord.Conversion(
                amount: converted.minorUnits, currency: SaveFormatter.text(converted.currency), rateBase: SaveFormatter.text(rate.base),
                rate: rate.rate.description, source: source
            )
        )
        return try await storing {
            try await store.write { db in
                if given != nil, let again = try Self.paymentAgain(settlement.id, by: user, in: db) { return again }
                // Converted is the balance as it stands: one changed since the user read it is
                // not converted at a sum worked out from the old one.
                let records = if let group {
                    try db.groupBalances(of: user.rawValue).filter { $0.group == group.rawValue }.map(\.pair)
                } else {
                    try db.balances(of: user.rawValue)
                }
                let now = try Self.owed(in: records, currency: record.currency, to: user)[other, default: 0]
                guard now == balance.minorUnits else {
                    throw ExpensesError.invalidSettlement(
                        "The balance in \(balance.currency.code) changed since you read it (it is now \(Money(minorUnits: now, currency: balance.currency))); nothing was converted."
                    )
                }
                try db.insert(record)
                try apply(settlement.balanceDeltas, group: record.group, in: db)
                try db.insert(ActivityRecord(
                    id: activityID, at: at, actor: user.rawValue, kind: SaveFormatter.text(Activity.Kind.settled),
                    subject: record.id, summary: settlement.summary(), people: [from.rawValue, to.rawValue], snapshot: try Self.kept(record)
                ))
                return settlement
            }
        }
    }

    // MARK: - Comments

    public func comments(on id: ExpenseID, for user: UserID) async throws(ExpensesError) -> [ExpenseComment] {
        let (people, records) = try await storing {
            try await store.read { db in (try db.expense(id: id.rawValue)?.expense().people, try db.comments(onExpense: id.rawValue)) }
        }
        guard let people, people.contains(user) else { throw .notFound(id) }
        return records.map(Self.comment(from:))
    }

    public func comment(_ typed: String, on id: ExpenseID, as given: CommentID?, by user: UserID) async throws(ExpensesError) -> ExpenseComment {
        let text: String
        switch ExpenseComment.text(typed) {
        case .success(let read): text = read
        case .failure(let problem): throw .invalidComment(problem)
        }
        let comment = ExpenseComment(
            id: given ?? CommentID(rawValue: UserID.random(using: random).rawValue), expense: id, author: user, at: now(), text: text
        )
        let activityID = UserID.random(using: random).rawValue
        let at = comment.at.timeIntervalSince1970
        return try await storing {
            try await store.write { db in
                guard let expense = try db.expense(id: id.rawValue)?.expense(), expense.people.contains(user) else { throw ExpensesError.notFound(id) }
                if given != nil, let kept = try db.comment(id: comment.id.rawValue) {
                    // This write again (sent once more after its answer was lost), or an id taken.
                    guard kept.author == user.rawValue, kept.expense == id.rawValue else { throw ExpensesError.idTaken(ExpenseID(rawValue: kept.id)) }
                    return Self.comment(from: kept)
                }
                guard try db.comments(onExpense: id.rawValue).count < ExpenseComment.maximumPerExpense else {
                    throw ExpensesError.invalidComment(.threadFull)
                }
                try db.insert(CommentRecord(id: comment.id.rawValue, expense: id.rawValue, author: user.rawValue, at: at, text: text))
                try db.insert(ActivityRecord(
                    id: activityID, at: at, actor: user.rawValue, kind: SaveFormatter.text(Activity.Kind.commented), subject: id.rawValue,
                    summary: expense.summary, people: expense.people.map(\.rawValue)
                ))
                return comment
            }
        }
    }

    public func deleteComment(_ comment: CommentID, on id: ExpenseID, by user: UserID) async throws(ExpensesError) {
        try await storing {
            try await store.write { db in
                guard let expense = try db.expense(id: id.rawValue)?.expense(), expense.people.contains(user) else { throw ExpensesError.notFound(id) }
                guard let record = try db.comments(onExpense: id.rawValue).first(where: { $0.id == comment.rawValue }) else {
                    throw ExpensesError.commentNotFound(comment)
                }
                guard record.author == user.rawValue else { throw ExpensesError.notYourComment }
                _ = try db.deleteComment(id: comment.rawValue, onExpense: id.rawValue)
            }
        }
    }

    static func comment(from record: CommentRecord) -> ExpenseComment {
        ExpenseComment(
            id: CommentID(rawValue: record.id), expense: ExpenseID(rawValue: record.expense), author: UserID(rawValue: record.author),
            at: Date(timeIntervalSince1970: record.at), text: record.text
        )
    }

    /// What `person` is owed by each other person in `currency`, from their balance records:
    /// positive when the other owes them, negative when they owe the other.
    private static func owed(in records: [BalanceRecord], currency: String, to person: UserID) throws(ExpensesError) -> [UserID: Int64] {
        var owed: [UserID: Int64] = [:]
        for record in records where record.currency == currency {
            let (other, units) = try seen(record, by: person)
            owed[other] = units
        }
        return owed
    }

    /// A pair's record as `user` sees it: the other person, and what they owe `user` (negative
    /// when `user` owes them). The one amount that has no opposite in 64 bits (a file changed by
    /// hand) is reported rather than negated; one merely beyond the ledger's bound is left for
    /// the write's own check to refuse.
    private static func seen(_ record: BalanceRecord, by user: UserID) throws(ExpensesError) -> (other: UserID, units: Int64) {
        guard record.amount != .min else {
            throw .storeUnavailable("the balance of \(record.low) and \(record.high) is damaged")
        }
        // A record's amount is what its high side owes its low side.
        return record.low == user.rawValue ? (UserID(rawValue: record.high), record.amount) : (UserID(rawValue: record.low), -record.amount)
    }

    public func balances(of user: UserID) async throws(ExpensesError) -> [Balance] {
        let records = try await storing { try await store.read { try $0.balances(of: user.rawValue) } }
        return try records.map { record throws(ExpensesError) in
            let (other, units) = try Self.seen(record, by: user)
            return Balance(other: other, amount: Money(minorUnits: units, currency: try Self.currency(record.currency)))
        }.sorted { ($0.other.rawValue, $0.amount.currency.code) < ($1.other.rawValue, $1.amount.currency.code) }
    }

    public func suggestedPayments(for user: UserID, in currency: Currency) async throws(ExpensesError) -> [SuggestedPayment] {
        let code = SaveFormatter.text(currency)
        // The user's own pairs only: what two of their people owe each other is not theirs to
        // see, nor to be read from a suggestion.
        let records = try await storing { try await store.read { try $0.balances(of: user.rawValue).filter { $0.currency == code } } }
        var net: [UserID: Int128] = [:]
        for record in records {
            net[UserID(rawValue: record.low), default: 0] += Int128(record.amount)
            net[UserID(rawValue: record.high), default: 0] -= Int128(record.amount)
        }
        return DebtSimplifier.payments(for: net, currency: currency)
    }

    public func activity(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Activity] {
        let records = try await storing { try await store.read { try $0.activity(of: user.rawValue, offset: page.offset, limit: page.limit) } }
        return try records.map { record throws(ExpensesError) in
            guard let kind = try? SaveFormatter.value(Activity.Kind.self, from: record.kind) else {
                throw .storeUnavailable("the activity \(record.id) has an unknown kind")
            }
            return Activity(
                kind: kind, actor: UserID(rawValue: record.actor), subject: ExpenseID(rawValue: record.subject),
                summary: record.summary, at: Date(timeIntervalSince1970: record.at)
            )
        }
    }

    public func spending(of user: UserID, from first: Day?, through last: Day?) async throws(ExpensesError) -> SpendingReport {
        let (from, through) = (first?.description ?? "0001-01-01", last?.description ?? "9999-12-31")
        let sums = try await storing { try await store.read { try $0.spending(of: user.rawValue, from: from, through: through) } }
        let lines = { (records: [SpendingRecord]) throws(ExpensesError) -> [SpendingReport.Line] in
            try records.map { record throws(ExpensesError) in
                SpendingReport.Line(label: record.group, amount: Money(minorUnits: record.amount, currency: try Self.currency(record.currency)))
            }
        }
        return SpendingReport(byCategory: try lines(sums.byCategory), byMonth: try lines(sums.byMonth))
    }

    public func expenses(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense] {
        try await storing {
            try await store.read { db in
                try db.expenseIDs(of: user.rawValue, offset: page.offset, limit: page.limit).compactMap { try db.expense(id: $0)?.expense() }
            }
        }
    }

    public func expenses(of user: UserID, sharedWith other: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense] {
        try await storing {
            try await store.read { db in
                try db.expenseIDs(sharedBy: user.rawValue, with: other.rawValue, offset: page.offset, limit: page.limit)
                    .compactMap { try db.expense(id: $0)?.expense() }
            }
        }
    }

    public func recentPeople(of user: UserID) async throws(ExpensesError) -> [UserID] {
        try await storing {
            try await store.read { try $0.recentPeople(of: user.rawValue, scanning: Self.recentScan).map(UserID.init(rawValue:)) }
        }
    }

    /// How many of a user's newest expenses tell who they share with most recently.
    static let recentScan = 500

    public func settlements(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Settlement] {
        let records = try await storing { try await store.read { try $0.settlements(of: user.rawValue, offset: page.offset, limit: page.limit) } }
        return try records.map(Self.settlement(from:))
    }

    public func settlement(_ id: ExpenseID, for user: UserID) async throws(ExpensesError) -> Settlement? {
        let record = try await storing { try await store.read { try $0.settlement(id: id.rawValue) } }
        guard let record, [record.from, record.to].contains(user.rawValue) else { return nil }
        return try Self.settlement(from: record)
    }

    public func currencies(of user: UserID) async throws(ExpensesError) -> [Currency] {
        let codes = try await storing { try await store.read { try Set($0.balances(of: user.rawValue).map(\.currency)) } }
        return try codes.sorted().map(Self.currency)
    }

    public func undoSettlement(_ id: ExpenseID, by user: UserID) async throws(ExpensesError) {
        let named = try await storing { try await store.read { db in try db.settlement(id: id.rawValue).map { [$0.from, $0.to] } } }
        if let named, named.contains(user.rawValue) { try await checkNoBlock(among: Set(named.map(UserID.init(rawValue:))), for: user) }
        let at = now().timeIntervalSince1970
        let activityID = UserID.random(using: random).rawValue
        try await storing {
            try await store.write { db in
                guard let record = try db.settlement(id: id.rawValue) else { throw ExpensesError.notFound(id) }
                let settlement = try Self.settlement(from: record)
                // To anyone it does not name, it does not exist; one it passes through sees it.
                guard user == settlement.from || user == settlement.to else {
                    guard settlement.through.contains(user) else { throw ExpensesError.notFound(id) }
                    throw ExpensesError.invalidSettlement("Only the payer or the payee can take a payment back.")
                }
                try apply(settlement.balanceDeltas.map(\.reversed), group: record.group, in: db)
                try db.deleteSettlement(id: id.rawValue)
                try db.insert(ActivityRecord(
                    id: activityID, at: at, actor: user.rawValue, kind: SaveFormatter.text(Activity.Kind.unsettled), subject: id.rawValue,
                    summary: settlement.summary(takenBack: true), people: ([settlement.from, settlement.to] + settlement.through).map(\.rawValue),
                    snapshot: try Self.kept(record)
                ))
            }
        }
    }

    public func paymentHistory(of id: ExpenseID, for user: UserID) async throws(ExpensesError) -> [PaymentChange] {
        let records = try await storing { try await store.read { db in try db.changes(ofExpense: id.rawValue) } }
        let changes = records.filter { $0.kind == SaveFormatter.text(Activity.Kind.settled) || $0.kind == SaveFormatter.text(Activity.Kind.unsettled) }
        // Only someone it named (payer, payee, or someone it passed through) sees how it came
        // and went, as only they see it; an expense's id is no payment.
        guard !changes.isEmpty, changes.contains(where: { $0.people.contains(user.rawValue) }) else { throw .notFound(id) }
        let decoder = JSONDecoder()
        var history: [PaymentChange] = []
        for record in changes {
            let kind: Activity.Kind = record.kind == SaveFormatter.text(Activity.Kind.settled) ? .settled : .unsettled
            var payment: Settlement?
            if let snapshot = record.snapshot {
                guard let kept = try? decoder.decode(SettlementRecord.self, from: Data(snapshot.utf8)) else {
                    throw .storeUnavailable("the change \(record.id) keeps a damaged payment")
                }
                payment = try Self.settlement(from: kept)
            }
            history.append(PaymentChange(kind: kind, by: UserID(rawValue: record.actor), at: Date(timeIntervalSince1970: record.at), payment: payment))
        }
        return history
    }

    // MARK: - Helpers

    /// A payment as its changes keep it: the stored record, whole, as JSON.
    static func kept(_ record: SettlementRecord) throws -> String {
        String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
    }

    /// Whether an expense or a payment holds `id`, kept, deleted or taken back (its lines of
    /// activity stay): an id given for a new one is not to be taken again.
    static func isHeld(_ id: String, in db: any ExpensesReading) throws -> Bool {
        try db.expense(id: id) != nil || db.deletedExpense(id: id) != nil || db.settlement(id: id) != nil || !db.changes(ofExpense: id).isEmpty
    }

    /// A new payment's id made elsewhere, checked inside the write that takes it: the payment
    /// `user` recorded under it already (this write again, sent once more after its answer was
    /// lost), as it is now; nil when the id is free; ``ExpensesError/idTaken(_:)`` when anything
    /// else holds it.
    static func paymentAgain(_ id: ExpenseID, by user: UserID, in db: any ExpensesReading) throws -> Settlement? {
        if let kept = try db.settlement(id: id.rawValue), kept.createdBy == user.rawValue { return try settlement(from: kept) }
        guard try !isHeld(id.rawValue, in: db) else { throw ExpensesError.idTaken(id) }
        return nil
    }

    static func settlement(from record: SettlementRecord) throws(ExpensesError) -> Settlement {
        let currency = try currency(record.currency)
        guard let day = try? Day(record.day) else { throw .storeUnavailable("the payment \(record.id) has a damaged day") }
        return Settlement(
            id: ExpenseID(rawValue: record.id), from: UserID(rawValue: record.from), to: UserID(rawValue: record.to),
            amount: Money(minorUnits: record.amount, currency: currency), day: day,
            legs: record.legs.map {
                PairBalances.Delta(creditor: UserID(rawValue: $0.creditor), debtor: UserID(rawValue: $0.debtor), amount: Money(minorUnits: $0.amount, currency: currency))
            },
            group: record.group.map(GroupID.init(rawValue:)),
            conversion: try record.conversion.map { kept throws(ExpensesError) in try conversion(kept, of: record.id, from: currency) }
        )
    }

    /// A conversion as stored, read back; a damaged one is reported, never guessed at.
    private static func conversion(_ kept: SettlementRecord.Conversion, of id: String, from paid: Currency) throws(ExpensesError) -> Conversion {
        guard let (rate, other) = kept.read(paying: paid) else { throw .storeUnavailable("the conversion \(id) has a damaged rate") }
        return Conversion(amount: Money(minorUnits: kept.amount, currency: other), rate: rate, source: kept.source)
    }

    /// The people in expense `id` as stored now (none when there is none, or the user is not
    /// in it: the write that follows says so), for the checks made before it.
    private func people(in id: ExpenseID) async throws(ExpensesError) -> Set<UserID> {
        try await storing { try await store.read { db in try db.expense(id: id.rawValue)?.expense().people } } ?? []
    }

    /// Refuses an expense naming `people` that the user may not name: within a group, anyone
    /// not a member of it; outside one, anyone not their friend or contact.
    func checkMayName(_ people: Set<UserID>, in group: GroupID?, by user: UserID) async throws(ExpensesError) {
        if let group {
            try await checkMembers(people, of: group, seenBy: user)
        } else {
            let strangers = try await strangers(among: people, to: user)
            guard strangers.isEmpty else { throw .unknownPeople(strangers.sorted { $0.rawValue < $1.rawValue }) }
        }
    }

    /// Refuses a write in `group` unless the user and all of `people` are its members and it
    /// is not archived.
    @discardableResult
    private func checkMembers(_ people: Set<UserID>, of group: GroupID, seenBy user: UserID) async throws(ExpensesError) -> GroupMembers {
        let found = try await members(among: people, of: group, seenBy: user)
        let outsiders = people.subtracting(found.members)
        guard outsiders.isEmpty else { throw .notGroupMembers(outsiders.sorted { $0.rawValue < $1.rawValue }) }
        guard !found.archived else { throw .groupArchived }
        return found
    }

    /// Whether `user` is a member of `group`.
    func isMember(_ user: UserID, of group: GroupID) async throws(ExpensesError) -> Bool {
        do { return try await groups.members(among: [], of: group, seenBy: user) != nil } catch { throw .storeUnavailable("\(error)") }
    }

    /// The group as `user` sees it; ``ExpensesError/notInGroup(_:)`` when they are not in it.
    private func members(among people: Set<UserID> = [], of group: GroupID, seenBy user: UserID) async throws(ExpensesError) -> GroupMembers {
        let found: GroupMembers?
        do {
            found = try await groups.members(among: people, of: group, seenBy: user)
        } catch {
            throw .storeUnavailable("\(error)")
        }
        guard let found, found.members.contains(user) else { throw .notInGroup(group) }
        return found
    }

    /// Refuses a change to what the user shares with `people` when a block stands between the
    /// user and one of them.
    func checkNoBlock(among people: Set<UserID>, for user: UserID) async throws(ExpensesError) {
        let others = people.subtracting([user])
        guard !others.isEmpty else { return }
        let blocked: Set<UserID>
        do {
            blocked = try await self.people.blocked(among: others, for: user)
        } catch {
            throw .storeUnavailable("\(error)")
        }
        guard blocked.isEmpty else { throw .blocked(blocked.sorted { $0.rawValue < $1.rawValue }) }
    }

    /// The ones among `people`, besides `user`, that `user` may not name.
    private func strangers(among people: Set<UserID>, to user: UserID) async throws(ExpensesError) -> Set<UserID> {
        let others = people.subtracting([user])
        guard !others.isEmpty else { return [] }
        do {
            return try await self.people.strangers(among: others, to: user)
        } catch {
            throw .storeUnavailable("\(error)")
        }
    }

    func checked(_ id: ExpenseID, _ draft: ExpenseDraft) throws(ExpensesError) -> Expense {
        do {
            return try Expense(id: id, draft: draft)
        } catch {
            throw .invalid(error)
        }
    }

    func record(_ kind: Activity.Kind, _ expense: Expense, by user: UserID, kept: StoredExpense? = nil) -> ActivityRecord {
        ActivityRecord(
            id: UserID.random(using: random).rawValue, at: now().timeIntervalSince1970, actor: user.rawValue,
            kind: SaveFormatter.text(kind), subject: expense.id.rawValue, summary: expense.summary,
            people: expense.people.map(\.rawValue), snapshot: kept.flatMap(Self.snapshot)
        )
    }

    /// An expense kept whole with the change that left it so: its stored form as JSON, keys sorted.
    static func snapshot(_ stored: StoredExpense) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(stored)).flatMap { String(data: $0, encoding: .utf8) }
    }

    private static func currency(_ code: String) throws(ExpensesError) -> Currency {
        guard let currency = try? SaveFormatter.value(Currency.self, from: code) else {
            throw .storeUnavailable("the store holds an unknown currency \(code)")
        }
        return currency
    }

}

/// Runs store work, turning its failures into ``ExpensesError``s.
func storing<T>(_ work: () async throws -> T) async throws(ExpensesError) -> T {
    do {
        return try await work()
    } catch let error as ExpensesError {
        throw error
    } catch let ExpensesDataError.refused(rule) {
        throw .refused(rule)
    } catch {
        throw .storeUnavailable("\(error)")
    }
}

// MARK: - Groups

extension LiveExpensesService {
    public func debts(in group: GroupID, for user: UserID) async throws(ExpensesError) -> [Debt] {
        _ = try await members(of: group, seenBy: user)
        return try await debts(in: group)
    }

    public func suggestedPayments(in group: GroupID, currency: Currency, for user: UserID) async throws(ExpensesError) -> [SuggestedPayment] {
        let found = try await members(of: group, seenBy: user)
        let debts = try await debts(in: group).filter { $0.amount.currency == currency }
        guard found.simplifyDebts else {
            return debts.map { SuggestedPayment(from: $0.debtor, to: $0.creditor, amount: $0.amount) }
        }
        var net: [UserID: Int128] = [:]
        for debt in debts {
            net[debt.creditor, default: 0] += Int128(debt.amount.minorUnits)
            net[debt.debtor, default: 0] -= Int128(debt.amount.minorUnits)
        }
        return DebtSimplifier.payments(for: net, currency: currency)
    }

    public func groupBalances(of user: UserID) async throws(ExpensesError) -> [GroupBalance] {
        let records = try await storing { try await store.read { try $0.groupBalances(of: user.rawValue) } }
        return try records.map { record throws(ExpensesError) in
            let (other, units) = try Self.seen(record.pair, by: user)
            return GroupBalance(group: GroupID(rawValue: record.group), other: other, amount: Money(minorUnits: units, currency: try Self.currency(record.currency)))
        }.sorted { ($0.group.rawValue, $0.other.rawValue, $0.amount.currency.code) < ($1.group.rawValue, $1.other.rawValue, $1.amount.currency.code) }
    }

    public func expenses(in group: GroupID, for user: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense] {
        _ = try await members(of: group, seenBy: user)
        return try await storing {
            try await store.read { db in
                try db.expenseIDs(inGroup: group.rawValue, offset: page.offset, limit: page.limit).compactMap { try db.expense(id: $0)?.expense() }
            }
        }
    }

    public func settlements(in group: GroupID, for user: UserID, page: PageRequest) async throws(ExpensesError) -> [Settlement] {
        _ = try await members(of: group, seenBy: user)
        let records = try await storing { try await store.read { try $0.settlements(inGroup: group.rawValue, offset: page.offset, limit: page.limit) } }
        return try records.map(Self.settlement(from:))
    }
}

extension LiveExpensesService {
    public func totals(in group: GroupID, for user: UserID) async throws(ExpensesError) -> GroupTotals {
        _ = try await members(of: group, seenBy: user)
        let sums = try await storing { try await store.read { try $0.totals(inGroup: group.rawValue) } }
        let lines = { (records: [SpendingRecord]) throws(ExpensesError) -> [GroupTotals.Line] in
            try records.map { record throws(ExpensesError) in
                GroupTotals.Line(key: record.group, amount: Money(minorUnits: record.amount, currency: try Self.currency(record.currency)))
            }.sorted { ($1.amount.minorUnits, $0.key, $0.amount.currency.code) < ($0.amount.minorUnits, $1.key, $1.amount.currency.code) }
        }
        return GroupTotals(byMember: try lines(sums.byMember), byCategory: try lines(sums.byCategory))
    }
}

extension LiveExpensesService: GroupBalanceReading {
    public func debts(in group: GroupID) async throws(ExpensesError) -> [Debt] {
        let records = try await storing { try await store.read { try $0.groupBalances(in: group.rawValue) } }
        return try records.map { record throws(ExpensesError) in
            guard record.amount != .min else { throw .storeUnavailable("the balance of \(record.low) and \(record.high) is damaged") }
            let currency = try Self.currency(record.currency)
            // A record's amount is what its high side owes its low side.
            return record.amount > 0
                ? Debt(debtor: UserID(rawValue: record.high), creditor: UserID(rawValue: record.low), amount: Money(minorUnits: record.amount, currency: currency))
                : Debt(debtor: UserID(rawValue: record.low), creditor: UserID(rawValue: record.high), amount: Money(minorUnits: -record.amount, currency: currency))
        }
    }
}

extension LiveExpensesService: PersonMerging {
    public func merge(_ contact: UserID, into account: UserID) async throws(ExpensesError) {
        guard contact != account else { throw .cannotMerge("A person cannot be linked to themselves.") }
        let (from, to) = (contact.rawValue, account.rawValue)
        try await storing {
            try await store.write { db in
                guard try !db.shareAnything(from, to) else {
                    throw ExpensesError.cannotMerge("They are in an expense or a payment together, so they cannot be one person.")
                }
                // Each of the contact's balances, overall and within each group, moves to the same
                // pair with the account in its place; a pair seen from the other side changes sign.
                let overall = try db.balances(of: from).map { (group: String?.none, pair: $0) }
                let withinGroups = try db.groupBalances(of: from).map { (group: Optional($0.group), pair: $0.pair) }
                for (group, record) in overall + withinGroups {
                    let add = { (low: String, high: String, amount: Int64) throws -> Int64 in
                        guard let group else { return try db.addToBalance(low: low, high: high, currency: record.currency, amount: amount) }
                        return try db.addToGroupBalance(group: group, low: low, high: high, currency: record.currency, amount: amount)
                    }
                    _ = try add(record.low, record.high, -record.amount)
                    let other = record.low == from ? record.high : record.low
                    // A pair's amount is what its low side is owed by its high side.
                    let owedToAccount = record.low == from ? record.amount : -record.amount
                    let (low, high, amount) = to < other ? (to, other, owedToAccount) : (other, to, -owedToAccount)
                    let balance: Int64
                    do {
                        balance = try add(low, high, amount)
                    } catch ExpensesDataError.outOfRange {
                        throw ExpensesError.beyondLimit(try Self.currency(record.currency))
                    }
                    guard balance.magnitude <= LedgerLimits.maximumAmount.magnitude else {
                        throw ExpensesError.beyondLimit(try Self.currency(record.currency))
                    }
                }
                try db.renamePerson(from: from, to: to)
            }
        }
    }
}

extension BalanceChange {
    /// A change in the pair's order, as stores keep it.
    init(_ delta: PairBalances.Delta) {
        let (key, units) = delta.keyed
        self.init(low: key.low.rawValue, high: key.high.rawValue, currency: SaveFormatter.text(key.currency), amount: units)
    }
}

/// Applies balance changes in a transaction, overall and, for a write filed under `group`,
/// within the group too; one that takes a pair's balance beyond ``LedgerLimits/maximumAmount``
/// throws, which rolls the whole write back.
func apply(_ deltas: [PairBalances.Delta], group: String?, in db: any ExpensesWriting) throws {
    for delta in deltas {
        let (key, units) = delta.keyed
        let (low, high, currency) = (key.low.rawValue, key.high.rawValue, SaveFormatter.text(key.currency))
        var balances: [Int64] = []
        do {
            balances.append(try db.addToBalance(low: low, high: high, currency: currency, amount: units))
            if let group { balances.append(try db.addToGroupBalance(group: group, low: low, high: high, currency: currency, amount: units)) }
        } catch ExpensesDataError.outOfRange {
            throw ExpensesError.beyondLimit(key.currency)
        }
        guard balances.allSatisfy({ $0.magnitude <= LedgerLimits.maximumAmount.magnitude }) else { throw ExpensesError.beyondLimit(key.currency) }
    }
}

extension GroupBalanceRecord {
    /// The pair's record, as if it were their only balance.
    var pair: BalanceRecord { BalanceRecord(low: low, high: high, currency: currency, amount: amount) }
}
