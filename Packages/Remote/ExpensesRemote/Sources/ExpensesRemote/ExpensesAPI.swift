import Expenses
import FlowsAPI
import FlowsWire
import Primitives
import PrimitivesRemote

/// The Expenses operations of the contract, each declared once: flows-server serves them and
/// ``RemoteExpensesService`` calls them.
///
/// Those of the service's operations tagged `/// - Contract:` are declared from the contract in
/// `ExpensesAPI+Contract.swift`, which `Scripts/generate-services` writes; the rest are here.
public enum ExpensesAPI {
    public typealias Call<Input: Sendable, Output: Sendable> = Endpoint<Input, Output, ExpensesError>

    public static let listExpenses = Call<PageRequest, [Expense]>(
        "listExpenses", .get, "/expenses", request: .query(Wire.page), response: .json(Wire.expenseList), problems: problems
    )
    public static let getExpense = Call<ExpenseID, Expense>(
        "getExpense", .get, "/expenses/{expenseId}", request: .path("expenseId", Wire.expenseID), response: .json(Wire.expense), problems: problems
    )
    public static let editExpense = Call<((ExpenseID, ExpenseDraft), Int), Expense>(
        "editExpense", .put, "/expenses/{expenseId}",
        request: RequestCoding<(ExpenseID, ExpenseDraft)>.path("expenseId", Wire.expenseID, body: Wire.expenseDraft)
            .header(Wire.ifMatch),
        response: .json(Wire.expense), problems: problems
    )

    public static let addComment = Call<((ExpenseID, String), CommentID?), ExpenseComment>(
        "addComment", .post, "/expenses/{expenseId}/comments", status: .created,
        request: RequestCoding.path("expenseId", Wire.expenseID, body: Wire.commentText).query(optional: "id", Wire.commentID),
        response: .json(Wire.comment), problems: problems
    )
    public static let deleteComment = Call<(ExpenseID, CommentID), Void>(
        "deleteComment", .delete, "/expenses/{expenseId}/comments/{commentId}", status: .noContent,
        request: .path("expenseId", Wire.expenseID, "commentId", Wire.commentID), response: .none, problems: problems
    )

    public static let repeatExpense = Call<((ExpenseID, Repeating), SeriesID?), ExpenseSeries>(
        "repeatExpense", .post, "/expenses/{expenseId}/series", status: .created,
        request: RequestCoding.path("expenseId", Wire.expenseID, body: Wire.repeating).query(optional: "id", Wire.seriesID), response: .json(Wire.series),
        problems: problems
    )
    public static let getExpenseSeries = Call<ExpenseID, ExpenseSeries?>(
        "getExpenseSeries", .get, "/expenses/{expenseId}/series", request: .path("expenseId", Wire.expenseID), response: .json(Wire.seriesAnswer),
        problems: problems
    )
    public static let listSeries = Call<Day, [UpcomingOccurrence]>(
        "listSeries", .get, "/series", request: .query(Wire.afterDay), response: .json(Wire.upcoming), problems: problems
    )
    public static let createDueOccurrences = Call<Day, [Expense]>(
        "createDueOccurrences", .post, "/due-occurrences", request: .body(Wire.due), response: .json(Wire.expenseList), problems: problems
    )
    public static let editSeries = Call<(SeriesID, ExpenseDraft), ExpenseSeries>(
        "editSeries", .put, "/series/{seriesId}", request: .path("seriesId", Wire.seriesID, body: Wire.expenseDraft), response: .json(Wire.series),
        problems: problems
    )
    public static let stopSeries = Call<(SeriesID, Day), ExpenseSeries>(
        "stopSeries", .post, "/series/{seriesId}/stop", request: .path("seriesId", Wire.seriesID, body: Wire.stopping), response: .json(Wire.series),
        problems: problems
    )

    /// How an expense is to repeat, as the contract takes it.
    public struct Repeating: Sendable {
        public let frequency: Recurrence.Frequency
        public let end: Recurrence.End?

        public init(frequency: Recurrence.Frequency, end: Recurrence.End?) {
            self.frequency = frequency
            self.end = end
        }
    }

    /// A change that does not say which version it was made from.
    static let versionRequired = APIProblem(
        .preconditionRequired, .versionRequired, "Say which version of the expense the change was made from: If-Match: \"3\"."
    )
    public static let listDeletedExpenses = Call<PageRequest, [Expense]>(
        "listDeletedExpenses", .get, "/deleted-expenses", request: .query(Wire.page), response: .json(Wire.expenseList), problems: problems
    )
    public static let listSharedExpenses = Call<(UserID, PageRequest), [Expense]>(
        "listSharedExpenses", .get, "/people/{personId}/shared-expenses", request: .path("personId", Wire.userID, query: Wire.page),
        response: .json(Wire.expenseList), problems: problems
    )
    public static let listSettlements = Call<PageRequest, [Settlement]>(
        "listSettlements", .get, "/settlements", request: .query(Wire.page), response: .json(Wire.settlementList), problems: problems
    )
    public static let settleUp = Call<(PaymentDraft, ExpenseID?), Settlement>(
        "settleUp", .post, "/settlements", status: .created, request: RequestCoding.body(Wire.payment).query(optional: "id", Wire.expenseID),
        response: .json(Wire.settlement), problems: problems
    )
    public static let convertBalance = Call<(ConversionDraft, ExpenseID?), Settlement>(
        "convertBalance", .post, "/conversions", status: .created, request: RequestCoding.body(Wire.conversion).query(optional: "id", Wire.expenseID),
        response: .json(Wire.settlement), problems: problems
    )
    public static let getSettlement = Call<ExpenseID, Settlement>(
        "getSettlement", .get, "/settlements/{settlementId}", request: .path("settlementId", Wire.expenseID), response: .json(Wire.settlement),
        problems: problems
    )
    public static let undoSettlement = Call<ExpenseID, Void>(
        "undoSettlement", .delete, "/settlements/{settlementId}", status: .noContent, request: .path("settlementId", Wire.expenseID),
        response: .none, problems: problems
    )
    public static let listActivity = Call<PageRequest, [Activity]>(
        "listActivity", .get, "/activity", request: .query(Wire.page), response: .json(Wire.activity), problems: problems
    )
    public static let listGroupExpenses = Call<(GroupID, PageRequest), [Expense]>(
        "listGroupExpenses", .get, "/groups/{groupId}/expenses", request: .path("groupId", Wire.groupID, query: Wire.page),
        response: .json(Wire.expenseList), problems: problems
    )
    public static let listGroupSettlements = Call<(GroupID, PageRequest), [Settlement]>(
        "listGroupSettlements", .get, "/groups/{groupId}/settlements", request: .path("groupId", Wire.groupID, query: Wire.page),
        response: .json(Wire.settlementList), problems: problems
    )

    /// A payment as the contract takes it: the other person, and whether the user paid.
    public struct PaymentDraft: Sendable {
        public let counterparty: UserID
        public let userPaid: Bool
        public let amount: Money
        public let day: Day
        public let group: GroupID?

        public init(counterparty: UserID, userPaid: Bool, amount: Money, day: Day, group: GroupID? = nil) {
            self.group = group
            self.counterparty = counterparty
            self.userPaid = userPaid
            self.amount = amount
            self.day = day
        }

        /// `from` paying `to`, as `user` (one of the two) records it. The contract names the
        /// other person and who paid, so a payment it cannot say (the user neither of the two,
        /// or both) is refused, by the service's own rule.
        public init(from: UserID, to: UserID, amount: Money, day: Day, group: GroupID?, by user: UserID) throws(ExpensesError) {
            if let reason = Settlement.problem(from: from, to: to, amount: amount, by: user) { throw .invalidSettlement(reason) }
            self.init(counterparty: user == from ? to : from, userPaid: user == from, amount: amount, day: day, group: group)
        }

        /// Who paid whom, for `user`.
        public func parties(for user: UserID) -> (from: UserID, to: UserID) { userPaid ? (user, counterparty) : (counterparty, user) }
    }

    /// A conversion as the contract takes it: the user's balance with `counterparty` as they
    /// read it, and the rate to move it into the other currency at.
    public struct ConversionDraft: Sendable {
        public let counterparty: UserID
        public let balance: Money
        public let rate: ExchangeRate
        public let source: String
        public let day: Day
        public let group: GroupID?

        public init(counterparty: UserID, balance: Money, rate: ExchangeRate, source: String, day: Day, group: GroupID?) {
            self.counterparty = counterparty
            self.balance = balance
            self.rate = rate
            self.source = source
            self.day = day
            self.group = group
        }
    }

    /// Expenses' errors as the contract's refusals, and back.
    public static let problems = ProblemTable<ExpensesError>(
        problem: { error in
            switch error {
            case .invalid(let problem): APIProblem(problem)
            case .notFound(let id): APIProblem(.notFound, .notFound, error.message, details: .init(expenseId: id.rawValue))
            case .changedSince(let id, let version):
                APIProblem(.preconditionFailed, .changedSince, error.message, details: .init(expenseId: id.rawValue, version: version))
            case .notInExpense: APIProblem(.forbidden, .notInExpense, error.message)
            case .unknownPeople(let people):
                APIProblem(.unprocessableContent, .unknownPeople, error.message, details: .init(people: people.map(\.rawValue)))
            case .blocked(let people): APIProblem(.conflict, .blocked, error.message, details: .init(people: people.map(\.rawValue)))
            case .invalidSettlement(let reason): APIProblem(.unprocessableContent, .invalidSettlement, error.message, details: .init(reason: reason))
            case .invalidComment(let problem):
                APIProblem(.unprocessableContent, .invalidComment, error.message, details: .init(field: "/text", reason: problem.rawValue))
            case .commentNotFound(let id): APIProblem(.notFound, .commentNotFound, error.message, details: .init(commentId: id.rawValue))
            case .notYourComment: APIProblem(.forbidden, .notYourComment, error.message)
            case .seriesNotFound: APIProblem(.notFound, .seriesNotFound, error.message)
            case .invalidRepeat(let problem): APIProblem(.unprocessableContent, .invalidRepeat, error.message, details: .init(reason: problem.rawValue))
            case .beyondLimit(let currency): APIProblem(.conflict, .beyondLimit, error.message, details: .init(currency: currency.code))
            case .idTaken(let id): APIProblem(.conflict, .idTaken, error.message, details: .init(expenseId: id.rawValue))
            case .cannotMerge(let reason): APIProblem(.conflict, .cannotMerge, error.message, details: .init(reason: reason))
            case .notInGroup(let group): APIProblem(.notFound, .notInGroup, error.message, details: .init(groupId: group.rawValue))
            case .notGroupMembers(let people):
                APIProblem(.unprocessableContent, .notGroupMembers, error.message, details: .init(people: people.map(\.rawValue)))
            case .groupArchived: APIProblem(.conflict, .groupArchived, error.message)
            case .refused(let rule): .refused(rule)
            case .storeUnavailable(let reason), .serverUnreachable(let reason): .storeUnavailable(reason)
            case .signedOut: .unauthenticated(error.message, tokenSent: true)
            }
        },
        failure: { failure in
            let details = failure.details
            if let problem = ExpenseProblem(failure) { return .invalid(problem) }
            switch failure.code {
            case .notFound?: return .notFound(ExpenseID(rawValue: details?.expenseId ?? ""))
            case .changedSince?: if let version = details?.version { return .changedSince(ExpenseID(rawValue: details?.expenseId ?? ""), version: version) }
            case .notInExpense?: return .notInExpense
            case .unknownPeople?: return .unknownPeople((details?.people ?? []).map(UserID.init(rawValue:)))
            case .blocked?: return .blocked((details?.people ?? []).map(UserID.init(rawValue:)))
            case .invalidSettlement?: return .invalidSettlement(details?.reason ?? failure.message)
            case .invalidComment?: if let problem = details?.reason.flatMap(CommentProblem.init(rawValue:)) { return .invalidComment(problem) }
            case .commentNotFound?: return .commentNotFound(CommentID(rawValue: details?.commentId ?? ""))
            case .notYourComment?: return .notYourComment
            case .seriesNotFound?: return .seriesNotFound(SeriesID(rawValue: ""))
            case .invalidRepeat?: if let problem = details?.reason.flatMap(RecurrenceProblem.init(rawValue:)) { return .invalidRepeat(problem) }
            case .beyondLimit?: if let currency = details?.currency.flatMap({ Currency(code: $0) }) { return .beyondLimit(currency) }
            case .idTaken?: return .idTaken(ExpenseID(rawValue: details?.expenseId ?? ""))
            case .cannotMerge?: return .cannotMerge(details?.reason ?? failure.message)
            case .notInGroup?: return .notInGroup(GroupID(rawValue: details?.groupId ?? ""))
            case .notGroupMembers?: return .notGroupMembers((details?.people ?? []).map(UserID.init(rawValue:)))
            case .groupArchived?: return .groupArchived
            case .refused?: return .refused(details?.reason ?? failure.message)
            case .storeUnavailable?: return .storeUnavailable(failure.message)
            case _ where failure.isSignedOut: return .signedOut
            default: break
            }
            return .serverUnreachable(failure.description)
        }
    )
}

// MARK: - A draft's problems, both ways

extension APIProblem {
    /// A draft's problem: its code, and the field of the draft it is about.
    init(_ problem: ExpenseProblem) {
        let message = problem.message
        switch problem {
        case .description: self = .invalidValue(.invalidDescription, message, field: "/description")
        case .descriptionControlCharacters: self = .invalidValue(.invalidDescriptionControlCharacters, message, field: "/description")
        case .descriptionInvisibleCharacters: self = .invalidValue(.invalidDescriptionInvisibleCharacters, message, field: "/description")
        case .noPayer: self = .invalidValue(.noPayer, message, field: "/payers")
        case .duplicatePayer: self = .invalidValue(.duplicatePayer, message, field: "/payers")
        case .payerCurrency: self = .invalidValue(.payerCurrency, message, field: "/payers")
        case .payerAmount: self = .invalidValue(.payerAmount, message, field: "/payers")
        case .paymentsDoNotAddUp(let paid, let amount):
            self = APIProblem(
                .unprocessableContent, .paymentsDoNotAddUp, message,
                details: .init(field: "/payers", amount: Wire.money.write(amount), sum: paid.map(Wire.money.write))
            )
        case .amountTooLarge(let currency): self = APIProblem(.unprocessableContent, .amountTooLarge, message, details: .init(currency: currency.code))
        case .note: self = .invalidValue(.invalidNote, message, field: "/note")
        case .tooManyPeople: self = .invalidValue(.tooManyPeople, message, field: "/participants")
        case .split(let split): self.init(split)
        }
    }

    init(_ problem: SplitProblem) {
        let message = problem.message
        switch problem {
        case .amountNotPositive: self = .invalidValue(.splitAmountNotPositive, message, field: "/amount")
        case .noParticipants: self = .invalidValue(.splitNoParticipants, message, field: "/participants")
        case .duplicateParticipant: self = .invalidValue(.splitDuplicateParticipant, message, field: "/participants")
        case .partsDoNotMatchParticipants: self = .invalidValue(.splitPartsDoNotMatchParticipants, message, field: "/rule")
        case .currencyMismatch: self = .invalidValue(.splitCurrencyMismatch, message, field: "/rule")
        case .negativePart: self = .invalidValue(.splitNegativePart, message, field: "/rule")
        case .exactSumMismatch(let sum, let amount):
            self = APIProblem(
                .unprocessableContent, .splitExactSumMismatch, message,
                details: .init(field: "/rule", amount: Wire.money.write(amount), sum: sum.map(Wire.money.write))
            )
        case .percentagesSum(let basisPoints):
            self = APIProblem(.unprocessableContent, .splitPercentagesSum, message, details: .init(field: "/rule", basisPoints: Int64(basisPoints)))
        case .percentageTooLarge: self = .invalidValue(.splitPercentageTooLarge, message, field: "/rule")
        case .shareTooLarge: self = .invalidValue(.splitShareTooLarge, message, field: "/rule")
        case .noShares: self = .invalidValue(.splitNoShares, message, field: "/rule")
        }
    }
}

extension ExpenseProblem {
    /// The draft's problem a refusal names, with its values.
    init?(_ failure: RemoteFailure) {
        let details = failure.details
        let money = { (wire: Components.Schemas.Money?) in wire.flatMap { try? Wire.money.read($0, "") } }
        switch failure.code {
        case .invalidDescription?: self = .description
        case .invalidDescriptionControlCharacters?: self = .descriptionControlCharacters
        case .invalidDescriptionInvisibleCharacters?: self = .descriptionInvisibleCharacters
        case .noPayer?: self = .noPayer
        case .duplicatePayer?: self = .duplicatePayer
        case .payerCurrency?: self = .payerCurrency
        case .payerAmount?: self = .payerAmount
        case .paymentsDoNotAddUp?:
            guard let amount = money(details?.amount) else { return nil }
            self = .paymentsDoNotAddUp(paid: money(details?.sum), amount: amount)
        case .amountTooLarge?:
            guard let currency = details?.currency.flatMap({ Currency(code: $0) }) else { return nil }
            self = .amountTooLarge(currency)
        case .invalidNote?: self = .note
        case .tooManyPeople?: self = .tooManyPeople
        case .splitAmountNotPositive?: self = .split(.amountNotPositive)
        case .splitNoParticipants?: self = .split(.noParticipants)
        case .splitDuplicateParticipant?: self = .split(.duplicateParticipant)
        case .splitPartsDoNotMatchParticipants?: self = .split(.partsDoNotMatchParticipants)
        case .splitCurrencyMismatch?: self = .split(.currencyMismatch)
        case .splitNegativePart?: self = .split(.negativePart)
        case .splitExactSumMismatch?:
            guard let amount = money(details?.amount) else { return nil }
            self = .split(.exactSumMismatch(sum: money(details?.sum), amount: amount))
        case .splitPercentagesSum?:
            guard let points = details?.basisPoints else { return nil }
            self = .split(.percentagesSum(basisPoints: Int(clamping: points)))
        case .splitPercentageTooLarge?: self = .split(.percentageTooLarge)
        case .splitShareTooLarge?: self = .split(.shareTooLarge)
        case .splitNoShares?: self = .split(.noShares)
        default: return nil
        }
    }
}
