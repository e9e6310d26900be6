import Expenses
import FlowsAPIClient
import Primitives

/// The expenses service of a flows-server, over HTTP, for the signed-in user: each operation is
/// its ``ExpensesAPI`` endpoint, called as the session's user (the server acts only as the user
/// whose token it was sent). Expenses come back as the server recorded them; their splits are
/// worked out again here by the same rules, to the same minor units.
///
/// The operations sent as they stand are in `RemoteExpensesService+Contract.swift`, which
/// Scripts/generate-services writes from the `- Contract:` tags of ``ExpensesService``; here are the rest.
public struct RemoteExpensesService: ExpensesService {
    let connection: APIConnection

    public init(connection: APIConnection) {
        self.connection = connection
    }

    // MARK: - Expenses

    public func edit(_ id: ExpenseID, to draft: ExpenseDraft, from version: Int, by user: UserID) async throws(ExpensesError) -> Expense {
        try await connection.send(ExpensesAPI.editExpense, ((id, draft), version))
    }

    public func deletedExpenses(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense] {
        page.limit > 0 ? try await connection.send(ExpensesAPI.listDeletedExpenses, page) : []
    }

    public func expense(_ id: ExpenseID, for user: UserID) async throws(ExpensesError) -> Expense? {
        do { return try await connection.send(ExpensesAPI.getExpense, id) } catch .notFound { return nil }
    }

    public func settlement(_ id: ExpenseID, for user: UserID) async throws(ExpensesError) -> Settlement? {
        do { return try await connection.send(ExpensesAPI.getSettlement, id) } catch .notFound { return nil }
    }

    public func expenses(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense] {
        page.limit > 0 ? try await connection.send(ExpensesAPI.listExpenses, page) : []
    }

    public func expenses(of user: UserID, sharedWith other: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense] {
        page.limit > 0 ? try await connection.send(ExpensesAPI.listSharedExpenses, (other, page)) : []
    }

    // MARK: - Payments

    public func settle(from: UserID, to: UserID, amount: Money, day: Day, in group: GroupID?, as id: ExpenseID?, by user: UserID) async throws(ExpensesError)
        -> Settlement
    {
        let payment = try ExpensesAPI.PaymentDraft(from: from, to: to, amount: amount, day: day, group: group, by: user)
        return try await connection.send(ExpensesAPI.settleUp, (payment, id))
    }

    public func convert(
        _ balance: Money, with other: UserID, at rate: ExchangeRate, source: String, day: Day, in group: GroupID?, as id: ExpenseID?, by user: UserID
    ) async throws(ExpensesError) -> Settlement {
        try await connection.send(
            ExpensesAPI.convertBalance, (.init(counterparty: other, balance: balance, rate: rate, source: source, day: day, group: group), id)
        )
    }

    public func comment(_ text: String, on id: ExpenseID, as comment: CommentID?, by user: UserID) async throws(ExpensesError) -> ExpenseComment {
        try await connection.send(ExpensesAPI.addComment, ((id, text), comment))
    }

    public func deleteComment(_ comment: CommentID, on id: ExpenseID, by user: UserID) async throws(ExpensesError) {
        try await connection.send(ExpensesAPI.deleteComment, (id, comment))
    }

    public func settlements(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Settlement] {
        page.limit > 0 ? try await connection.send(ExpensesAPI.listSettlements, page) : []
    }

    public func undoSettlement(_ id: ExpenseID, by user: UserID) async throws(ExpensesError) {
        try await connection.send(ExpensesAPI.undoSettlement, id)
    }

    // MARK: - Balances and reports

    public func activity(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Activity] {
        page.limit > 0 ? try await connection.send(ExpensesAPI.listActivity, page) : []
    }

    public func expenses(in group: GroupID, for user: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense] {
        page.limit > 0 ? try await connection.send(ExpensesAPI.listGroupExpenses, (group, page)) : []
    }

    public func settlements(in group: GroupID, for user: UserID, page: PageRequest) async throws(ExpensesError) -> [Settlement] {
        page.limit > 0 ? try await connection.send(ExpensesAPI.listGroupSettlements, (group, page)) : []
    }

    /// The server takes no imports yet: a file is imported into this machine's store.
    public func importEntries(_ entries: [ImportedEntry], by user: UserID, progress: ImportProgress?) async throws(ExpensesError) -> Set<String> {
        throw .refused("the server takes no imports yet: import without --server, into this machine's store")
    }

    public func importedKeys(among keys: [String], by user: UserID) async throws(ExpensesError) -> Set<String> {
        throw .refused("the server takes no imports yet: import without --server, into this machine's store")
    }
}

extension RemoteExpensesService: RecurringExpenses {
    public func repeatExpense(
        _ id: ExpenseID, every frequency: Recurrence.Frequency, until end: Recurrence.End?, as series: SeriesID?, by user: UserID
    ) async throws(ExpensesError) -> ExpenseSeries {
        try await connection.send(ExpensesAPI.repeatExpense, ((id, .init(frequency: frequency, end: end)), series))
    }

    public func series(of user: UserID, after day: Day) async throws(ExpensesError) -> [UpcomingOccurrence] {
        try await connection.send(ExpensesAPI.listSeries, day)
    }

    public func series(containing id: ExpenseID, for user: UserID) async throws(ExpensesError) -> ExpenseSeries? {
        try await connection.send(ExpensesAPI.getExpenseSeries, id)
    }

    public func editSeries(_ id: SeriesID, to template: ExpenseDraft, by user: UserID) async throws(ExpensesError) -> ExpenseSeries {
        try await connection.send(ExpensesAPI.editSeries, (id, template))
    }

    public func stopSeries(_ id: SeriesID, after day: Day, by user: UserID) async throws(ExpensesError) -> ExpenseSeries {
        try await connection.send(ExpensesAPI.stopSeries, (id, day))
    }

    public func createDueOccurrences(through day: Day, for user: UserID) async throws(ExpensesError) -> [Expense] {
        try await connection.send(ExpensesAPI.createDueOccurrences, day)
    }
}
