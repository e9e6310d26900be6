import Foundation
import Primitives

/// Adding, editing and deleting expenses, settling up, and reading balances, activity and
/// reports.
///
/// Every method that writes does so in one transaction: a failure part-way leaves the store as
/// it was. Balances are kept up to date by each write, so reading them never scans expenses.
///
/// Every method takes the acting user and reads or changes only what that user takes part in,
/// so the same service can serve many users.
public protocol ExpensesService: Sendable {
    /// Records an expense; the user adding it must be in it (paying or sharing), and everyone
    /// else in it must be their friend or contact (``PeopleDirectory``).
    /// `id`, when given, is the new expense's: one made where the write was made (a replica
    /// offline, which names it in later writes before the server has seen it). One already in
    /// use, by any expense or payment kept or deleted, is ``ExpensesError/idTaken(_:)``; nil
    /// makes a new one.
    /// - Contract: addExpense
    func add(_ draft: ExpenseDraft, as id: ExpenseID?, by user: UserID) async throws(ExpensesError) -> Expense
    /// Replaces an expense; only someone in it (paying or sharing) may, and they stay in it.
    /// Anyone it did not name before must be their friend or contact. `version` is the one the
    /// edit was made from: when the expense has changed since, nothing is written
    /// (``ExpensesError/changedSince(_:version:)``). The edited expense is the next version.
    func edit(_ id: ExpenseID, to draft: ExpenseDraft, from version: Int, by user: UserID) async throws(ExpensesError) -> Expense
    /// Deletes an expense, seen at `version` (refused as an edit is when it has changed since);
    /// only someone in it may. It can be restored: it leaves every list and balance but is kept.
    /// - Contract: deleteExpense
    func delete(_ id: ExpenseID, from version: Int, by user: UserID) async throws(ExpensesError)
    /// Puts a deleted expense back as it was, balances with it; only someone in it may.
    /// - Contract: restoreExpense
    func restore(_ id: ExpenseID, by user: UserID) async throws(ExpensesError) -> Expense
    /// Every change to an expense the user is in now (kept or deleted), oldest first: who made
    /// it, when, and the expense as it left it. ``ExpensesError/notFound(_:)`` for anyone else.
    /// - Contract: getExpenseHistory
    /// - Replica: read
    func history(of id: ExpenseID, for user: UserID) async throws(ExpensesError) -> [ExpenseChange]
    /// The deleted expenses `user` was in, the most recently deleted first.
    /// - Replica: read
    func deletedExpenses(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense]
    /// An expense `user` is in; nil for one that does not exist or that they are not in.
    /// - Replica: read
    func expense(_ id: ExpenseID, for user: UserID) async throws(ExpensesError) -> Expense?
    /// Records that `from` paid `to`; `user` is one of the two, and the other is their friend or
    /// contact, or someone `from` owes in the currency (then at most what is owed). Beyond what
    /// `from` owes `to`, the payment clears what `from` owes people who owe `to`
    /// (``PaymentRouting``).
    ///
    /// Within `group`, both are its members and the payment moves their balances there (and
    /// clears debts only through other members' balances there).
    ///
    /// `id`, when given, is the new payment's, as for ``add(_:as:by:)``: one made where the
    /// write was made (a replica offline). One that `user` recorded already is this write again
    /// and answers the payment as it is; one in use otherwise, by any expense or payment kept,
    /// deleted or taken back, is ``ExpensesError/idTaken(_:)``. Nil makes a new one.
    func settle(from: UserID, to: UserID, amount: Money, day: Day, in group: GroupID?, as id: ExpenseID?, by user: UserID) async throws(ExpensesError)
        -> Settlement
    /// Settles `user`'s whole balance with `other` in one currency by moving it into another at
    /// a stated rate: recorded as a payment of that balance made by owing its worth in the
    /// other currency (``Conversion``), rounded once (``ExchangeRate/convert(_:)``). `balance` is
    /// the balance as the user read it (positive when `other` owes them); when it has changed
    /// since, nothing is written. `source` says where the rate comes from (`ECB 2026-11-24`, or
    /// `agreed`). Within `group`, its balances there. Undone as a payment is. `id`, when given,
    /// is the new payment's, as for ``settle(from:to:amount:day:in:as:by:)``.
    func convert(
        _ balance: Money, with other: UserID, at rate: ExchangeRate, source: String, day: Day, in group: GroupID?, as id: ExpenseID?, by user: UserID
    ) async throws(ExpensesError) -> Settlement
    /// What each other person owes `user` (positive) or is owed by them (negative), per currency.
    /// - Contract: listBalances
    /// - Replica: read
    func balances(of user: UserID) async throws(ExpensesError) -> [Balance]
    /// Few payments that would settle `user`'s own balances in one currency (someone who owes
    /// `user` may be asked to pay someone `user` owes instead): read from the pairs `user` is
    /// in only, so that none tells what two others owe each other.
    /// - Contract: listSuggestedPayments
    /// - Replica: read
    func suggestedPayments(for user: UserID, in currency: Currency) async throws(ExpensesError) -> [SuggestedPayment]
    /// The newest changes that involve `user`, newest first.
    /// - Replica: read
    func activity(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Activity]
    /// What `user`'s own parts of expenses came to, by category and by month, for the expenses
    /// of the days from `first` through `last` (each end open when nil).
    /// - Contract: getSpendingReport
    /// - Replica: read
    func spending(of user: UserID, from first: Day?, through last: Day?) async throws(ExpensesError) -> SpendingReport

    /// The expenses `user` is in, newest first (by day, then by when they were written).
    /// - Replica: read
    func expenses(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense]
    /// The expenses both `user` and `other` are in, in the same order: what they share.
    /// - Replica: read
    func expenses(of user: UserID, sharedWith other: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense]
    /// The people in `user`'s most recent expenses (their newest 500), the most recent first:
    /// whom they are likely to share the next one with.
    /// - Contract: listRecentPeople
    /// - Replica: read
    func recentPeople(of user: UserID) async throws(ExpensesError) -> [UserID]
    /// The payments `user` made or received, newest first.
    /// - Replica: read
    func settlements(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Settlement]
    /// Payment `id`, if `user` made or received it and it was not taken back.
    /// - Replica: read
    func settlement(_ id: ExpenseID, for user: UserID) async throws(ExpensesError) -> Settlement?
    /// The currencies `user` has a balance in, by code.
    /// - Contract: listCurrencies
    /// - Replica: read
    func currencies(of user: UserID) async throws(ExpensesError) -> [Currency]
    /// Takes back a recorded payment: balances return to what they were without it. Only its
    /// payer or payee may.
    func undoSettlement(_ id: ExpenseID, by user: UserID) async throws(ExpensesError)
    /// How a payment that names the user (its payer, its payee, or someone it passed through)
    /// came and went, oldest first: who recorded it and who took it back, when, and the payment
    /// whole. ``ExpensesError/notFound(_:)`` for anyone it never named.
    /// - Contract: getPaymentHistory
    /// - Replica: read
    func paymentHistory(of id: ExpenseID, for user: UserID) async throws(ExpensesError) -> [PaymentChange]

    // MARK: Comments

    /// The thread of expense `id`, oldest first, for someone in it;
    /// ``ExpensesError/notFound(_:)`` for anyone else, and for a deleted expense.
    /// - Contract: listComments
    /// - Replica: read
    func comments(on id: ExpenseID, for user: UserID) async throws(ExpensesError) -> [ExpenseComment]
    /// Adds `text` (as ``ExpenseComment/text(_:)`` reads it) to the thread of expense `id`, by someone
    /// in it; the activity of everyone in it says so (without the text). `comment`, when given,
    /// is the new comment's id, made where it was written (a replica offline): one `user` wrote
    /// already on this expense is this write again and answers the comment as it is; one in use
    /// otherwise is ``ExpensesError/idTaken(_:)``. Nil makes a new one.
    func comment(_ text: String, on id: ExpenseID, as comment: CommentID?, by user: UserID) async throws(ExpensesError) -> ExpenseComment
    /// Deletes the user's own comment on expense `id`; someone else's is
    /// ``ExpensesError/notYourComment``.
    func deleteComment(_ comment: CommentID, on id: ExpenseID, by user: UserID) async throws(ExpensesError)

    // MARK: Groups

    /// Who owes whom within `group`, every pair of its members and currency: the group is
    /// shared, so each member sees all of it. ``ExpensesError/notInGroup`` for anyone else.
    /// - Contract: listGroupDebts
    /// - Replica: read
    func debts(in group: GroupID, for user: UserID) async throws(ExpensesError) -> [Debt]
    /// Few payments that would settle `group` in one currency: simplified across members when
    /// the group says so, otherwise each pair's own debt.
    /// - Contract: listGroupSuggestedPayments
    /// - Replica: read
    func suggestedPayments(in group: GroupID, currency: Currency, for user: UserID) async throws(ExpensesError) -> [SuggestedPayment]
    /// `user`'s balances within each group they have one in (a group's balances come and go
    /// with its expenses; a member settled there has none).
    /// - Contract: listGroupBalances
    /// - Replica: read
    func groupBalances(of user: UserID) async throws(ExpensesError) -> [GroupBalance]
    /// The expenses filed under `group`, newest first, for one of its members.
    /// - Replica: read
    func expenses(in group: GroupID, for user: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense]
    /// The payments made within `group`, newest first, for one of its members.
    /// - Replica: read
    func settlements(in group: GroupID, for user: UserID, page: PageRequest) async throws(ExpensesError) -> [Settlement]
    /// What `group`'s expenses came to, by member and by category, for one of its members.
    /// - Contract: getGroupTotals
    /// - Replica: read
    func totals(in group: GroupID, for user: UserID) async throws(ExpensesError) -> GroupTotals
    /// Writes expenses and payments read from a file, in one transaction, each once: an entry
    /// whose key `user` imported before, or is the id of an expense or payment of theirs, is
    /// passed over. Each is checked as ``add(_:by:)`` and
    /// ``settle(from:to:amount:day:in:by:)`` check theirs (a payment moves only the pair it
    /// names); one refusal writes nothing. Returns the keys of the entries written. `progress`,
    /// if given, hears how many are written as the transaction goes.
    func importEntries(_ entries: [ImportedEntry], by user: UserID, progress: ImportProgress?) async throws(ExpensesError) -> Set<String>
    /// The ones among `keys` that `user` imported before, or that are the id of an expense or a
    /// payment of theirs (``importEntries(_:by:progress:)`` passes those over too).
    func importedKeys(among keys: [String], by user: UserID) async throws(ExpensesError) -> Set<String>
}

extension ExpensesService {
    /// Records an expense under a new id (``add(_:as:by:)``).
    public func add(_ draft: ExpenseDraft, by user: UserID) async throws(ExpensesError) -> Expense {
        try await add(draft, as: nil, by: user)
    }

    /// ``importEntries(_:by:progress:)`` without hearing its progress.
    public func importEntries(_ entries: [ImportedEntry], by user: UserID) async throws(ExpensesError) -> Set<String> {
        try await importEntries(entries, by: user, progress: nil)
    }

    /// Records a payment outside any group.
    public func settle(from: UserID, to: UserID, amount: Money, day: Day, by user: UserID) async throws(ExpensesError) -> Settlement {
        try await settle(from: from, to: to, amount: amount, day: day, in: nil, as: nil, by: user)
    }

    /// Converts a balance under a new id (``convert(_:with:at:source:day:in:as:by:)``).
    public func convert(
        _ balance: Money, with other: UserID, at rate: ExchangeRate, source: String, day: Day, in group: GroupID?, by user: UserID
    ) async throws(ExpensesError) -> Settlement {
        try await convert(balance, with: other, at: rate, source: source, day: day, in: group, as: nil, by: user)
    }

    /// Adds a comment under a new id (``comment(_:on:as:by:)``).
    public func comment(_ text: String, on id: ExpenseID, by user: UserID) async throws(ExpensesError) -> ExpenseComment {
        try await comment(text, on: id, as: nil, by: user)
    }

    /// Records a payment under a new id (``settle(from:to:amount:day:in:as:by:)``).
    public func settle(from: UserID, to: UserID, amount: Money, day: Day, in group: GroupID?, by user: UserID) async throws(ExpensesError) -> Settlement {
        try await settle(from: from, to: to, amount: amount, day: day, in: group, as: nil, by: user)
    }

    /// Replaces `expense`, as it was read, with `draft`.
    public func edit(_ expense: Expense, to draft: ExpenseDraft, by user: UserID) async throws(ExpensesError) -> Expense {
        try await edit(expense.id, to: draft, from: expense.version, by: user)
    }

    /// Deletes `expense`, as it was read.
    public func delete(_ expense: Expense, by user: UserID) async throws(ExpensesError) {
        try await delete(expense.id, from: expense.version, by: user)
    }

    /// What `user`'s own parts of all their expenses came to, by category and by month.
    public func spending(of user: UserID) async throws(ExpensesError) -> SpendingReport {
        try await spending(of: user, from: nil, through: nil)
    }

    /// The newest `limit` changes that involve `user`.
    public func activity(of user: UserID, limit: Int) async throws(ExpensesError) -> [Activity] {
        try await activity(of: user, page: PageRequest(limit: limit))
    }
}

/// Which part of a long list to read: `limit` items after skipping `offset`.
public struct PageRequest: Equatable, Sendable {
    public let offset: Int
    public let limit: Int

    /// Negative numbers count as zero; a limit is at most 1,000.
    public init(offset: Int = 0, limit: Int = 50) {
        self.offset = max(0, offset)
        self.limit = min(max(0, limit), 1_000)
    }

    /// The page after this one.
    public var next: PageRequest { PageRequest(offset: offset + limit, limit: limit) }
}

/// One person's balance with another in one currency: positive when the other owes them.
public struct Balance: Equatable, Sendable {
    public let other: UserID
    public let amount: Money

    public init(other: UserID, amount: Money) {
        self.other = other
        self.amount = amount
    }
}

/// A payment between two people that moves their balances toward zero.
public struct Settlement: Equatable, Sendable {
    public let id: ExpenseID
    public let from: UserID
    public let to: UserID
    public let amount: Money
    public let day: Day
    /// The balances it moved when it cleared debts through someone else (``PaymentRouting``);
    /// empty when it moved only the balance between `from` and `to`.
    public let legs: [PairBalances.Delta]
    /// The group it settles within, if any.
    public let group: GroupID?
    /// Set when `from` paid by owing `to` the amount's worth in another currency instead.
    public let conversion: Conversion?

    public init(
        id: ExpenseID, from: UserID, to: UserID, amount: Money, day: Day, legs: [PairBalances.Delta] = [], group: GroupID? = nil,
        conversion: Conversion? = nil
    ) {
        self.group = group
        self.conversion = conversion
        self.id = id
        self.from = from
        self.to = to
        self.amount = amount
        self.day = day
        self.legs = legs
    }

    /// What the payment changes: its legs, or else `from` owes `to` that much less.
    public var balanceDeltas: [PairBalances.Delta] {
        let paid = legs.isEmpty ? [PairBalances.Delta(creditor: from, debtor: to, amount: amount)] : legs
        guard let conversion else { return paid }
        return paid + [PairBalances.Delta(creditor: to, debtor: from, amount: conversion.amount)]
    }

    /// `Payment, 12.00 EUR`, or `Conversion, 22500 JPY into 138.45 EUR at 1 EUR = 162.51 JPY
    /// (ECB 2026-11-24)`: the line the activity keeps (`Payment taken back, …` for its undo).
    public func summary(takenBack: Bool = false) -> String {
        let kind = (conversion == nil ? "Payment" : "Conversion") + (takenBack ? " taken back" : "")
        guard let conversion else { return "\(kind), \(amount)" }
        return "\(kind), \(amount) into \(conversion.amount) at \(conversion.rate) (\(conversion.source))"
    }

    /// The people whose balances it moved besides `from` and `to`, by id.
    public var through: [UserID] {
        Set(legs.flatMap { [$0.creditor, $0.debtor] }).subtracting([from, to]).sorted { $0.rawValue < $1.rawValue }
    }

    /// The first rule a payment by `user` breaks, in the words the service refuses it with
    /// (``ExpensesError/invalidSettlement(_:)``); nil when it may be recorded. (How much may be
    /// paid to someone who is not a friend is the ledger's to say, from the balances.)
    public static func problem(from: UserID, to: UserID, amount: Money, by user: UserID) -> String? {
        guard from != to else { return "Someone cannot pay themselves." }
        if let problem = problem(amount: amount) { return problem }
        return user == from || user == to ? nil : "Only the payer or the payee can record a payment."
    }

    /// A payment's amount: more than zero, at most the ledger's largest.
    public static func problem(amount: Money) -> String? {
        guard amount.isPositive else { return SplitProblem.amountNotPositive.message }
        return amount.minorUnits <= LedgerLimits.maximumAmount ? nil : "A payment is at most \(LedgerLimits.largest(amount.currency))."
    }
}

/// What makes a payment a conversion: its payer owes the payee `amount`, in another currency,
/// for what they paid. Both balances move at once, so neither currency gains or loses a unit.
public struct Conversion: Equatable, Sendable {
    /// The payment's worth in the other currency, at `rate`, rounded once.
    public let amount: Money
    public let rate: ExchangeRate
    /// Where the rate comes from: `ECB 2026-11-24`, or `agreed` for one typed.
    public let source: String

    public init(amount: Money, rate: ExchangeRate, source: String) {
        self.amount = amount
        self.rate = rate
        self.source = source
    }

    /// What a rate's source may say: 1 to 60 characters, no control or invisible ones.
    public static func problem(source: String) -> String? {
        guard !source.isEmpty, source.count <= 60 else { return "Say where the rate comes from, in at most 60 characters." }
        guard !source.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }) else {
            return "A rate's source cannot hold control or invisible characters."
        }
        return nil
    }

    /// What `balance` becomes at `rate`, in the rate's other currency, without its sign;
    /// ``ExpensesError/invalidSettlement(_:)`` with the first rule it breaks: a balance to
    /// convert, a rate from its currency, and a result that is an amount above zero.
    public static func converting(_ balance: Money, at rate: ExchangeRate) throws(ExpensesError) -> Money {
        guard !balance.isZero else { throw .invalidSettlement("There is no balance in \(balance.currency.code) to convert.") }
        guard rate.base == balance.currency || rate.quote == balance.currency else {
            throw .invalidSettlement("The rate \(rate) does not convert \(balance.currency.code).")
        }
        let owed = Money(minorUnits: Int64(clamping: balance.minorUnits.magnitude), currency: balance.currency)
        guard let converted = rate.convert(owed), converted.minorUnits <= LedgerLimits.maximumAmount else {
            throw .invalidSettlement("At \(rate), \(owed) is more than an amount can be.")
        }
        guard converted.isPositive else {
            throw .invalidSettlement("At \(rate), \(owed) is less than the smallest amount in \(converted.currency.code): settle it as it is.")
        }
        return converted
    }
}

/// A change in the activity list.
public struct Activity: Equatable, Sendable {
    public enum Kind: String, Sendable, CaseIterable, SavedAsText {
        case added, edited, deleted, settled
        /// A deleted expense was put back.
        case restored
        /// A payment was taken back.
        case unsettled
        /// Someone commented on an expense.
        case commented
    }

    public let kind: Kind
    public let actor: UserID
    /// The expense or settlement changed.
    public let subject: ExpenseID
    /// A line for people: `Dinner, 30.00 EUR`.
    public let summary: String
    public let at: Date

    public init(kind: Kind, actor: UserID, subject: ExpenseID, summary: String, at: Date) {
        self.kind = kind
        self.actor = actor
        self.subject = subject
        self.summary = summary
        self.at = at
    }
}

/// One change to an expense, kept whole: who made it, when, and the expense as it left it.
public struct ExpenseChange: Equatable, Sendable {
    /// ``Activity/Kind/added``, `edited`, `deleted` or `restored`.
    public let kind: Activity.Kind
    public let by: UserID
    public let at: Date
    /// The expense as the change left it (as it was, for a delete); nil for a change made
    /// before changes were kept whole.
    public let expense: Expense?

    public init(kind: Activity.Kind, by: UserID, at: Date, expense: Expense?) {
        self.kind = kind
        self.by = by
        self.at = at
        self.expense = expense
    }
}

/// One change to a payment, kept whole: it is recorded, then perhaps taken back; never edited.
public struct PaymentChange: Equatable, Sendable {
    /// ``Activity/Kind/settled`` or ``Activity/Kind/unsettled``.
    public let kind: Activity.Kind
    public let by: UserID
    public let at: Date
    /// The payment as it was recorded or taken back; nil for a change made before payments
    /// were kept whole.
    public let payment: Settlement?

    public init(kind: Activity.Kind, by: UserID, at: Date, payment: Settlement?) {
        self.kind = kind
        self.by = by
        self.at = at
        self.payment = payment
    }
}

/// A user's own spending: their parts of expenses, per currency.
public struct SpendingReport: Equatable, Sendable {
    public struct Line: Equatable, Sendable {
        public let label: String
        public let amount: Money

        public init(label: String, amount: Money) {
            self.label = label
            self.amount = amount
        }
    }

    /// By category, largest first.
    public let byCategory: [Line]
    /// By month (`yyyy-MM`), oldest first.
    public let byMonth: [Line]

    public init(byCategory: [Line], byMonth: [Line]) {
        self.byCategory = byCategory
        self.byMonth = byMonth
    }
}

/// Why an expenses operation did not happen.
public enum ExpensesError: Error, Equatable, Sendable {
    case invalid(ExpenseProblem)
    case notFound(ExpenseID)
    /// The expense changed since the version an edit or a delete was made from; `version` is
    /// the one it is at now. Nothing was written.
    case changedSince(ExpenseID, version: Int)
    /// Only people in an expense may add, change or see it.
    case notInExpense
    /// The expense or payment names people who are not the user's friends or contacts.
    case unknownPeople([UserID])
    /// A block stands between the user and these people in it (either blocked the other): what
    /// they share stays as it is, and neither adds to it or changes it.
    case blocked([UserID])
    case invalidSettlement(String)
    case invalidComment(CommentProblem)
    /// There is no such comment on the expense.
    case commentNotFound(CommentID)
    /// Only a comment's author may delete it.
    case notYourComment
    /// There is no such series among the user's.
    case seriesNotFound(SeriesID)
    case invalidRepeat(RecurrenceProblem)
    /// The write would take a balance or a position beyond ``LedgerLimits``; nothing changed.
    case beyondLimit(Currency)
    /// An id given for a new expense or payment is already in use.
    case idTaken(ExpenseID)
    /// There is no such group, or the user is not in it.
    case notInGroup(GroupID)
    /// Everyone in an expense or payment filed under a group is a member of it; these are not.
    case notGroupMembers([UserID])
    /// The group is archived: it takes no new expenses or payments.
    case groupArchived
    /// Two people cannot become one (``PersonMerging``); the reason says why.
    case cannotMerge(String)
    /// A rule of the store refused the write (one the checks above should have caught).
    case refused(String)
    case storeUnavailable(String)
    /// The session ended while in use (a server's service).
    case signedOut
    /// The server could not be reached, or answered something it should not.
    case serverUnreachable(String)

    public var message: String {
        switch self {
        case .invalid(let problem): problem.message
        case .notFound(let id): "There is no expense \(id)."
        case .changedSince: "Someone changed this expense after you opened it, so nothing was saved; open it again to see the change."
        case .notInExpense: "Only people in an expense can add or change it: share it or pay for it."
        case .unknownPeople(let people):
            "Not among your friends or contacts: \(people.map(\.rawValue).sorted().joined(separator: ", ")). Add them as a friend or a contact first."
        case .blocked:
            "You cannot change what you share with someone you blocked or who blocked you: it stays as it is."
        case .invalidSettlement(let reason): reason
        case .invalidComment(let problem): problem.message
        case .commentNotFound: "That comment is not there any more: its author deleted it."
        case .notYourComment: "Only its author can delete a comment."
        case .seriesNotFound: "That repeating expense is not among yours any more."
        case .invalidRepeat(let problem): problem.message
        case .beyondLimit(let currency):
            "This would take a balance beyond \(LedgerLimits.largest(currency)) between two people (or a thousand times that for one person); nothing was saved."
        case .idTaken(let id): "The id \(id) is already in use; nothing was saved."
        case .notInGroup: "There is no such group among yours."
        case .notGroupMembers:
            "Everyone in an expense or a payment of a group is a member of it; add them to the group first, or take the expense out of it."
        case .groupArchived: "This group is archived; bring it back to add to it."
        case .cannotMerge(let reason): reason
        case .refused(let rule): "The store refused the change (\(rule)); nothing was saved."
        case .storeUnavailable(let reason): "The local store is unavailable: \(reason)"
        case .signedOut: ServerMessages.signedOut
        case .serverUnreachable(let reason): ServerMessages.unreachable(reason)
        }
    }
}

/// Whom a user may name in an expense or a payment besides themselves: their friends and
/// contacts. The app answers from its friends, so a stranger who learns ids cannot write into
/// other people's ledgers.
public protocol PeopleDirectory: Sendable {
    /// The ones among `people` that `user` may not name: neither an account they are friends
    /// with nor one of their own contacts (whether or not they exist).
    func strangers(among people: Set<UserID>, to user: UserID) async throws -> Set<UserID>

    /// The ones among `people` with a block between them and `user`, either way: what they
    /// share is left as it is, by both.
    func blocked(among people: Set<UserID>, for user: UserID) async throws -> Set<UserID>
}

/// Makes two people one in the ledger: what a contact (a person without an account) took part
/// in becomes the account's. The Friends area calls it when a contact's owner links the contact
/// to an account, after checking that the contact is theirs; it is not a service of its own.
public protocol PersonMerging: Sendable {
    /// Every expense, payment, balance and activity of `contact` becomes `account`'s, in one
    /// transaction: each part and payment keeps its amount, and the balances `contact` had are
    /// added to `account`'s with the same people. Refused (``ExpensesError/cannotMerge(_:)``)
    /// when the two are in one expense or payment together, since one person cannot owe
    /// themselves.
    func merge(_ contact: UserID, into account: UserID) async throws(ExpensesError)
}

/// A line of a user's activity, whole: what a replica keeps to show the activity as the server
/// does, and each expense's and payment's history with it (docs/sync.md).
public struct ActivityLine: Equatable, Sendable {
    /// The line's own id.
    public let id: String
    public let activity: Activity
    /// Everyone whose activity shows it.
    public let people: [UserID]
    /// For a change to an expense, the expense as the change left it (as it was, for a delete).
    public let expense: Expense?
    /// For a payment recorded or taken back, the payment.
    public let payment: Settlement?

    public init(id: String, activity: Activity, people: [UserID], expense: Expense? = nil, payment: Settlement? = nil) {
        self.id = id
        self.activity = activity
        self.people = people
        self.expense = expense
        self.payment = payment
    }
}

/// A series of repeating expenses whole, as a replica keeps it (docs/sync.md).
public struct KeptSeries: Equatable, Sendable {
    public let series: ExpenseSeries
    /// Its first occurrence as made: what each occurrence copies, dated at the first.
    public let template: Expense
    /// When it was made.
    public let madeAt: Date
    /// Each occurrence made so far, by day.
    public let occurrences: [Occurrence]

    /// A day of the series, and the expense made for it.
    public struct Occurrence: Equatable, Sendable {
        public let day: Day
        public let expense: ExpenseID

        public init(day: Day, expense: ExpenseID) {
            self.day = day
            self.expense = expense
        }
    }

    public init(series: ExpenseSeries, template: Expense, madeAt: Date, occurrences: [Occurrence]) {
        self.series = series
        self.template = template
        self.madeAt = madeAt
        self.occurrences = occurrences
    }
}

/// What a server tells a replica of beyond the service's own reads (docs/sync.md): the lines of
/// activity, deleted expenses and series.
public protocol ExpensesSyncSource: Sendable {
    /// Series `id`, whole, when `user` is in it; nil otherwise.
    func keptSeries(_ id: SeriesID, for user: UserID) async throws(ExpensesError) -> KeptSeries?
    /// The ids of the series `user` is in.
    func seriesIDs(of user: UserID) async throws(ExpensesError) -> [SeriesID]
    /// Expense `id`, deleted, when `user` was in it (and so may restore it); nil otherwise.
    func deletedExpense(_ id: ExpenseID, for user: UserID) async throws(ExpensesError) -> Expense?
    /// Payment `id` as a pull tells it to `user`, with its history: when it names them (its
    /// payer, its payee, or someone it passed through, whose balances it moved and whose replica
    /// moves them too), or is filed under a group they are in (its history then says only who
    /// made each change and when); nil otherwise.
    func payment(_ id: ExpenseID, for user: UserID) async throws(ExpensesError) -> PulledPayment?
    /// The ids of every expense and payment filed under `group` now: the ledger a member who
    /// joins starts to see, or one who leaves no longer sees. The store's owner's read (a pull
    /// reads each entity as the person sees it), never served.
    func ledgerIDs(of group: GroupID) async throws(ExpensesError) -> (expenses: [ExpenseID], payments: [ExpenseID])
    /// Line `id` of the activity of `subject` (an expense or a payment), whole, when `user`'s
    /// activity shows it; nil otherwise.
    func activityLine(_ id: String, of subject: ExpenseID, for user: UserID) async throws(ExpensesError) -> ActivityLine?
    /// Every line of `user`'s activity, by subject and id, oldest first.
    func activityLines(of user: UserID) async throws(ExpensesError) -> [(subject: ExpenseID, id: String)]
    /// The lines of expense `id`'s history (added, edited, deleted, restored), oldest first, whole,
    /// when `user` is in it (or was, when it was deleted): what its history shows them, the lines
    /// from before they were in it too.
    func historyLines(of id: ExpenseID, for user: UserID) async throws(ExpensesError) -> [ActivityLine]
    /// The ids of the lines of `subject`'s activity (an expense's or a payment's, comments
    /// included) that `user`'s activity shows, oldest first: what a write made offline added
    /// there.
    func lineIDs(of subject: ExpenseID, for user: UserID) async throws(ExpensesError) -> [String]
    /// The ids of every expense `user` is in, and of every deleted one they may restore, read
    /// at one moment.
    func expenseIDs(of user: UserID) async throws(ExpensesError) -> (current: [ExpenseID], deleted: [ExpenseID])
    /// What a page of a pull tells `user` of `expenses` and of `lines` (by subject and id), in
    /// one read of the store (docs/sync.md): each expense they are in, or may restore, with its
    /// comments and its history (who made each change and when, without the expense each change
    /// left; whole, only the lines their activity does not show, from before they were in it);
    /// each expense filed under a group they are in, as its ledger shows it (with who made each
    /// change and when, no comments, no lines); and each line as ``activityLine(_:of:for:)``
    /// tells it.
    func pullRead(expenses: [ExpenseID], lines: [(subject: ExpenseID, id: String)], for user: UserID) async throws(ExpensesError) -> ExpensesPullRead
}

/// What a page of a pull reads of expenses (``ExpensesSyncSource/pullRead(expenses:lines:for:)``).
public struct ExpensesPullRead: Sendable {
    /// Each expense the user sees, or may restore, by id; none for the others.
    public var expenses: [ExpenseID: PulledExpense]
    /// Each line their activity shows, whole.
    public var lines: [ActivityLine]

    public init(expenses: [ExpenseID: PulledExpense] = [:], lines: [ActivityLine] = []) {
        self.expenses = expenses
        self.lines = lines
    }
}

/// A payment as a pull tells it (``ExpensesSyncSource/payment(_:for:)``).
public struct PulledPayment: Sendable {
    public let payment: Settlement
    /// Who recorded it and when, oldest first; each change's payment too, for someone it names.
    public let history: [PaymentChange]

    public init(payment: Settlement, history: [PaymentChange]) {
        self.payment = payment
        self.history = history
    }
}

/// An expense as a pull tells it to someone in it, or in its group (docs/sync.md).
public struct PulledExpense: Sendable {
    public let expense: Expense
    /// Who changed it when, oldest first.
    public let history: [ExpenseChange]
    /// Oldest first; none for a deleted one (its comments cannot be read while it is deleted),
    /// nor for someone who sees it only in its group's ledger.
    public let comments: [ExpenseComment]
    /// Whether it was deleted, and so is theirs to restore.
    public let deleted: Bool
    /// The lines of its history their activity does not show (from before they were in it),
    /// whole, oldest first.
    public let untold: [ActivityLine]

    public init(expense: Expense, history: [ExpenseChange], comments: [ExpenseComment], deleted: Bool, untold: [ActivityLine]) {
        self.expense = expense
        self.history = history
        self.comments = comments
        self.deleted = deleted
        self.untold = untold
    }
}

/// One thing a pull puts on a replica's expenses (``ExpensesReplica/put(_:)-([PulledExpenses])``).
public enum PulledExpenses: Sendable {
    /// An expense, with its history (who changed it when), its comments, and whether it was deleted.
    case expense(Expense, history: [ExpenseChange], comments: [ExpenseComment], deleted: Bool)
    /// A line of activity.
    case line(ActivityLine)
}

/// What a replica does with the expenses and payments it pulled (docs/sync.md): each written as
/// the server has it, and the balances moved to match; the lines of activity (an expense's
/// history among them) as the server keeps them. The rules a user's own write is checked by are
/// not asked again: the server checked them.
public protocol ExpensesReplica: Sendable {
    /// Puts `expense` in place of what is kept of it, with its comments; its history (oldest
    /// first) says who added it, and when. A deleted one is kept among the deleted, to restore,
    /// moving no balance; its history says who deleted it, and when.
    func put(_ expense: Expense, history: [ExpenseChange], comments: [ExpenseComment], deleted: Bool) async throws(ExpensesError)
    /// Puts what a page pulled, in order, in one write: as each ``put(_:history:comments:deleted:)``
    /// and ``put(_:)-(ActivityLine)`` one after the other, at a fraction of the cost.
    func put(_ items: [PulledExpenses]) async throws(ExpensesError)
    /// Puts `payment` in place of what is kept of it; its history says who recorded it, and when.
    func put(_ payment: Settlement, history: [PaymentChange]) async throws(ExpensesError)
    /// Keeps a line of activity, once: lines are kept in the order they are put, which is the
    /// order the activity shows lines of the same moment in.
    func put(_ line: ActivityLine) async throws(ExpensesError)
    /// Puts a series in place of what is kept of it, with its occurrences.
    func put(_ series: KeptSeries) async throws(ExpensesError)
    /// Forgets series `id` for `user`, who is no longer in it.
    func removeSeries(_ id: SeriesID, for user: UserID) async throws(ExpensesError)
    /// Forgets expense `id` (deleted, or no longer the user's to see); its balances with it.
    func removeExpense(_ id: ExpenseID) async throws(ExpensesError)
    /// Forgets line `id` of `subject`'s activity: one made on this replica by a write made
    /// offline, which the server gives anew once it applied the write (or never, when it
    /// refused it).
    func removeLine(_ id: String, of subject: ExpenseID) async throws(ExpensesError)
    /// Forgets payment `id` (taken back, or no longer the user's to see); its balances with it.
    func removePayment(_ id: ExpenseID) async throws(ExpensesError)
}
