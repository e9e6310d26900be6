import Expenses
import FlowsAPI
import FlowsWire
import Primitives
import PrimitivesRemote

// Expenses' values in the contract's form: one pair each, read and written the same way by
// flows-server and by the client.

extension Wire {
    /// An expense's or payment's id: a lower-case UUID.
    static var expenseID: WireValue<ExpenseID, String> { uuid("an id", ExpenseID.init(rawValue:), \.rawValue) }

    static var commentID: WireValue<CommentID, String> { uuid("a comment's id", CommentID.init(rawValue:), \.rawValue) }

    /// An identifier written as a lower-case UUID; `what` names it in a refusal.
    private static func uuid<ID>(_ what: String, _ make: @escaping @Sendable (String) -> ID, _ text: @escaping @Sendable (ID) -> String) -> WireValue<ID, String> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                guard WireText.isUUID(wire) else { throw .invalidRequest("\(field) is not \(what) (a lower-case UUID).", field: field) }
                return make(wire)
            },
            write: text
        )
    }

    static var seriesID: WireValue<SeriesID, String> { uuid("a series' id", SeriesID.init(rawValue:), \.rawValue) }

    static var frequency: WireValue<Recurrence.Frequency, Components.Schemas.SeriesFrequency> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                switch wire.kind {
                case .days, .weeks:
                    guard let every = wire.every else { throw .invalidRequest("\(field)/every says every how many.", field: "\(field)/every") }
                    return wire.kind == .days ? .days(every) : .weeks(every)
                case .monthly:
                    guard let day = wire.day else { throw .invalidRequest("\(field)/day says which day of the month.", field: "\(field)/day") }
                    return .monthly(day: day)
                case .yearly:
                    return .yearly
                }
            },
            write: { frequency in
                switch frequency {
                case .days(let n): .init(kind: .days, every: n)
                case .weeks(let n): .init(kind: .weeks, every: n)
                case .monthly(let day): .init(kind: .monthly, day: day)
                case .yearly: .init(kind: .yearly)
                }
            }
        )
    }

    /// A series' end, from its two optional fields (a day wins over a count).
    static func end(day wire: String?, count: Int?, _ field: String) throws(APIProblem) -> Recurrence.End? {
        Recurrence.end(lastDay: try wire.map { text throws(APIProblem) in try day.read(text, "\(field)/endDay") }, count: count)
    }

    static var repeating: WireValue<ExpensesAPI.Repeating, Components.Schemas.RepeatRequest> {
        WireValue(
            read: { wire, _ throws(APIProblem) in
                ExpensesAPI.Repeating(frequency: try frequency.read(wire.frequency, "/frequency"), end: try end(day: wire.endDay, count: wire.endCount, ""))
            },
            write: { repeating in
                .init(
                    frequency: frequency.write(repeating.frequency), endDay: repeating.end?.lastDay?.description, endCount: repeating.end?.count
                )
            }
        )
    }

    public static var series: WireValue<ExpenseSeries, Components.Schemas.ExpenseSeries> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                let start = try day.read(wire.start, "\(field)/start")
                let rule = try frequency.read(wire.frequency, "\(field)/frequency")
                let until = try end(day: wire.endDay, count: wire.endCount, field)
                let recurrence: Recurrence
                do throws(RecurrenceProblem) {
                    recurrence = try Recurrence(start: start, frequency: rule, end: until)
                } catch {
                    throw .invalidRequest("\(field) is not a series: \(error.message)", field: field)
                }
                return ExpenseSeries(
                    id: try seriesID.read(wire.id, "\(field)/id"), template: try expenseDraft.read(wire.template, "\(field)/template"), recurrence: recurrence,
                    createdBy: UserID(rawValue: wire.createdBy), version: wire.version
                )
            },
            write: { series in
                let end = series.recurrence.end
                return .init(
                    id: series.id.rawValue, template: expenseDraft.write(series.template), frequency: frequency.write(series.recurrence.frequency),
                    start: series.recurrence.start.description, endDay: end?.lastDay?.description, endCount: end?.count, createdBy: series.createdBy.rawValue,
                    version: series.version
                )
            }
        )
    }

    static var seriesAnswer: WireValue<ExpenseSeries?, Components.Schemas.ExpenseSeriesAnswer> {
        WireValue(
            read: { wire, field throws(APIProblem) in try wire.series.map { item throws(APIProblem) in try series.read(item, "\(field)/series") } },
            write: { .init(series: $0.map(series.write)) }
        )
    }

    static var upcoming: WireValue<[UpcomingOccurrence], Components.Schemas.UpcomingSeriesList> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                var list: [UpcomingOccurrence] = []
                for (index, item) in wire.series.enumerated() {
                    list.append(UpcomingOccurrence(
                        series: try series.read(item.series, "\(field)/series/\(index)/series"),
                        next: try item.next.map { text throws(APIProblem) in try day.read(text, "\(field)/series/\(index)/next") }
                    ))
                }
                return list
            },
            write: { list in .init(series: list.map { .init(series: series.write($0.series), next: $0.next?.description) }) }
        )
    }

    static var afterDay: WireValue<Day, [String: String]> {
        WireValue(
            read: { query, _ throws(APIProblem) in
                guard let text = query["after"] else { throw .invalidRequest("after (a day) is required.", field: "after") }
                return try day.read(text, "after")
            },
            write: { ["after": $0.description] }
        )
    }

    static var stopping: WireValue<Day, Components.Schemas.StopSeriesRequest> {
        WireValue(read: { wire, _ throws(APIProblem) in try day.read(wire.after, "/after") }, write: { .init(after: $0.description) })
    }

    static var due: WireValue<Day, Components.Schemas.DueRequest> {
        WireValue(read: { wire, _ throws(APIProblem) in try day.read(wire.through, "/through") }, write: { .init(through: $0.description) })
    }

    /// A comment's text as sent: the domain checks it (``ExpenseComment/text(_:)``).
    static var commentText: WireValue<String, Components.Schemas.CommentRequest> {
        WireValue(read: { wire, _ throws(APIProblem) in wire.text }, write: { .init(text: $0) })
    }

    static var comment: WireValue<ExpenseComment, Components.Schemas.Comment> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                ExpenseComment(
                    id: try commentID.read(wire.id, "\(field)/id"), expense: try expenseID.read(wire.expenseId, "\(field)/expenseId"),
                    author: UserID(rawValue: wire.author), at: wire.at, text: wire.text
                )
            },
            write: { .init(id: $0.id.rawValue, expenseId: $0.expense.rawValue, author: $0.author.rawValue, at: $0.at, text: $0.text) }
        )
    }

    public static var commentList: WireValue<[ExpenseComment], Components.Schemas.CommentList> {
        comment.list().wrapped("comments", in: { .init(comments: $0) }, { $0.comments })
    }

    /// A page of a list: `offset` from 0, `limit` from 1 to 1,000 (50 when absent).
    static var page: WireValue<PageRequest, [String: String]> {
        WireValue(
            read: { query, _ throws(APIProblem) in
                let offset = try number(query["offset"], name: "offset") ?? 0
                let limit = try number(query["limit"], name: "limit") ?? 50
                guard offset >= 0 else { throw .invalidRequest("The query parameter \"offset\" is at least 0.", field: "offset") }
                guard (1...1_000).contains(limit) else { throw .invalidRequest("The query parameter \"limit\" is from 1 to 1000.", field: "limit") }
                return PageRequest(offset: offset, limit: limit)
            },
            write: { ["offset": String($0.offset), "limit": String($0.limit)] }
        )
    }

    private static func number(_ text: String?, name: String) throws(APIProblem) -> Int? {
        guard let text else { return nil }
        guard let number = Int32(text) else { throw .invalidRequest("The query parameter \"\(name)\" is a whole number.", field: name) }
        return Int(number)
    }

    static var currencyQuery: WireValue<Currency, [String: String]> {
        WireValue(
            read: { query, _ throws(APIProblem) in
                guard let code = query["currency"] else { throw .invalidRequest("The query parameter \"currency\" is missing.", field: "currency") }
                return try currency.read(code, "currency")
            },
            write: { ["currency": $0.code] }
        )
    }

    /// The first and last days of a report, each optional.
    static var fromThroughQuery: WireValue<(Day?, Day?), [String: String]> {
        WireValue(
            read: { query, _ throws(APIProblem) in
                (
                    try query["from"].map { text throws(APIProblem) in try day.read(text, "from") },
                    try query["through"].map { text throws(APIProblem) in try day.read(text, "through") }
                )
            },
            write: { days in
                var query: [String: String] = [:]
                query["from"] = days.0?.description
                query["through"] = days.1?.description
                return query
            }
        )
    }

    static var rule: WireValue<SplitRule, Components.Schemas.SplitRule> {
        WireValue(
            read: { rule, _ throws(APIProblem) in
                switch rule {
                case .equal: return .equal
                case .exact(let exact):
                    var amounts: [UserID: Money] = [:]
                    for (key, part) in exact.amounts.additionalProperties {
                        let field = "/rule/amounts/\(key)"
                        amounts[try userID.read(key, field)] = try money(part.minorUnits, part.currency, field: field)
                    }
                    return .exact(amounts)
                case .percentages(let percentages): return .percentages(try keyed(percentages.basisPoints.additionalProperties, "/rule/basisPoints"))
                case .shares(let shares): return .shares(try keyed(shares.shares.additionalProperties, "/rule/shares"))
                }
            },
            write: { rule in
                switch rule {
                case .equal: .equal(.init(mode: .equal))
                case .exact(let amounts):
                    .exact(.init(mode: .exact, amounts: .init(additionalProperties: Dictionary(uniqueKeysWithValues: amounts.map {
                        ($0.key.rawValue, Components.Schemas.NonNegativeMoney(minorUnits: $0.value.minorUnits, currency: $0.value.currency.code))
                    }))))
                case .percentages(let points): .percentages(.init(mode: .percentages, basisPoints: .init(additionalProperties: numbers(points))))
                case .shares(let shares): .shares(.init(mode: .shares, shares: .init(additionalProperties: numbers(shares))))
                }
            }
        )
    }

    private static func keyed(_ values: [String: Int32], _ field: String) throws(APIProblem) -> [UserID: Int] {
        var result: [UserID: Int] = [:]
        for (key, value) in values { result[try userID.read(key, "\(field)/\(key)")] = Int(value) }
        return result
    }

    private static func numbers(_ values: [UserID: Int]) -> [String: Int32] {
        Dictionary(uniqueKeysWithValues: values.map { ($0.key.rawValue, Int32(clamping: $0.value)) })
    }

    /// A draft as a request carries it; its texts no longer than the contract's limits.
    static var expenseDraft: WireValue<ExpenseDraft, Components.Schemas.ExpenseDraft> {
        WireValue(
            read: { draft, _ throws(APIProblem) in
                var payers: [Payer] = []
                for (index, payer) in draft.payers.enumerated() {
                    let field = "/payers/\(index)"
                    payers.append(Payer(
                        user: try userID.read(payer.user, "\(field)/user"), amount: try money(payer.amount.minorUnits, payer.amount.currency, field: "\(field)/amount")
                    ))
                }
                var participants: [UserID] = []
                for (index, participant) in draft.participants.enumerated() { participants.append(try userID.read(participant, "/participants/\(index)")) }
                return ExpenseDraft(
                    description: try text(atMost: WireText.Limit.description).read(draft.description, "/description"),
                    amount: try money(draft.amount.minorUnits, draft.amount.currency, field: "/amount"),
                    day: try day.read(draft.day, "/day"),
                    category: Category(rawValue: draft.category.rawValue) ?? .general,
                    payers: payers,
                    participants: participants,
                    rule: try rule.read(draft.rule, "/rule"),
                    note: try draft.note.map { note throws(APIProblem) in try text(atMost: WireText.Limit.note).read(note, "/note") },
                    group: try draft.group.map { group throws(APIProblem) in try groupID.read(group, "/group") }
                )
            },
            write: { draft in
                Components.Schemas.ExpenseDraft(
                    description: draft.description,
                    amount: .init(minorUnits: draft.amount.minorUnits, currency: draft.amount.currency.code),
                    day: draft.day.description,
                    category: Components.Schemas.Category(rawValue: draft.category.rawValue) ?? .general,
                    payers: draft.payers.map { .init(user: $0.user.rawValue, amount: .init(minorUnits: $0.amount.minorUnits, currency: $0.amount.currency.code)) },
                    participants: draft.participants.map(\.rawValue),
                    rule: rule.write(draft.rule),
                    note: draft.note,
                    group: draft.group?.rawValue
                )
            }
        )
    }

    /// An expense as the server recorded it; read back, its split is checked to be what its
    /// rule gives, by the same rules, to the same minor units.
    /// The version a change was made from (`If-Match: "3"`); a change that does not say is
    /// `428 version-required`.
    static var ifMatch: WireHeader<Int> { WireHeader("If-Match", versionTag, missing: ExpensesAPI.versionRequired) }

    /// A version as an entity tag: `"3"` (`If-Match`).
    static var versionTag: WireValue<Int, String> {
        WireValue(
            read: { given, field throws(APIProblem) in
                // A generated client may send it percent-encoded (`%223%22`).
                let text = given.removingPercentEncoding ?? given
                let digits = text.hasPrefix("\"") && text.hasSuffix("\"") && text.count >= 3 ? text.dropFirst().dropLast() : ""
                // As the contract's pattern: digits only, no sign, no leading zero.
                guard digits.first != "0", digits.allSatisfy({ $0.isASCII && $0.isNumber }), let version = Int(digits), version >= 1 else {
                    throw .invalidRequest("\(field) names the version a change was made from, in quotes: \"3\".", field: field)
                }
                return version
            },
            write: { "\"\($0)\"" }
        )
    }

    public static var expense: WireValue<Expense, Components.Schemas.Expense> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                var payers: [Payer] = []
                for payer in wire.payers { payers.append(Payer(user: UserID(rawValue: payer.user), amount: try money.read(payer.amount, field))) }
                let draft = ExpenseDraft(
                    description: wire.description, amount: try money.read(wire.amount, field), day: try day.read(wire.day, "\(field)/day"),
                    category: Category(rawValue: wire.category.rawValue) ?? .general, payers: payers,
                    participants: wire.split.parts.map { UserID(rawValue: $0.user) }, rule: try rule.read(wire.rule, "\(field)/rule"), note: wire.note,
                    group: wire.group.map(GroupID.init(rawValue:))
                )
                var parts: [(user: UserID, amount: Money)] = []
                for part in wire.split.parts { parts.append((UserID(rawValue: part.user), try money.read(part.amount, field))) }
                guard let split = Split(amount: draft.amount, recorded: parts, rule: draft.rule) else {
                    throw .invalidRequest("\(field)/split is not what the expense's rule gives.", field: "\(field)/split")
                }
                guard wire.version >= 1 else { throw .invalidRequest("\(field)/version is at least 1.", field: "\(field)/version") }
                do throws(ExpenseProblem) {
                    return try Expense(id: ExpenseID(rawValue: wire.id), draft: draft, recorded: split, version: wire.version)
                } catch {
                    throw .invalidRequest("\(field) is not an expense: \(error.message)", field: field)
                }
            },
            write: { expense in
                Components.Schemas.Expense(
                    id: expense.id.rawValue,
                    version: expense.version,
                    description: expense.description,
                    amount: money.write(expense.amount),
                    day: expense.day.description,
                    category: Components.Schemas.Category(rawValue: expense.category.rawValue) ?? .general,
                    payers: expense.payers.map { .init(user: $0.user.rawValue, amount: money.write($0.amount)) },
                    split: .init(
                        parts: expense.split.parts.map { .init(user: $0.user.rawValue, amount: money.write($0.amount)) },
                        extraUnits: expense.split.extraUnits.map {
                            .init(
                                user: $0.user.rawValue, remainder: $0.remainder, denominator: $0.denominator, rank: Int32(clamping: $0.rank),
                                wonTie: $0.wonTie
                            )
                        }
                    ),
                    rule: rule.write(expense.rule),
                    note: expense.note,
                    group: expense.group?.rawValue
                )
            }
        )
    }

    static var expenseList: WireValue<[Expense], Components.Schemas.ExpenseList> {
        expense.list().wrapped("expenses", in: { .init(expenses: $0) }, { $0.expenses })
    }

    public static var settlement: WireValue<Settlement, Components.Schemas.Settlement> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                var legs: [PairBalances.Delta] = []
                for leg in wire.legs {
                    legs.append(.init(creditor: UserID(rawValue: leg.creditor), debtor: UserID(rawValue: leg.debtor), amount: try money.read(leg.amount, field)))
                }
                return Settlement(
                    id: ExpenseID(rawValue: wire.id), from: UserID(rawValue: wire.from), to: UserID(rawValue: wire.to),
                    amount: try money.read(wire.amount, field), day: try day.read(wire.day, "\(field)/day"), legs: legs,
                    group: wire.group.map(GroupID.init(rawValue:)),
                    conversion: try wire.conversion.map { conversion throws(APIProblem) in
                        Conversion(
                            amount: try money.read(conversion.amount, "\(field)/conversion/amount"),
                            rate: try exchangeRate.read(conversion.rate, "\(field)/conversion/rate"), source: conversion.source
                        )
                    }
                )
            },
            write: { settlement in
                .init(
                    id: settlement.id.rawValue, from: settlement.from.rawValue, to: settlement.to.rawValue, amount: money.write(settlement.amount),
                    day: settlement.day.description,
                    legs: settlement.legs.map { .init(creditor: $0.creditor.rawValue, debtor: $0.debtor.rawValue, amount: money.write($0.amount)) },
                    group: settlement.group?.rawValue,
                    conversion: settlement.conversion.map {
                        .init(amount: money.write($0.amount), rate: exchangeRate.write($0.rate), source: $0.source)
                    }
                )
            }
        )
    }

    static var settlementList: WireValue<[Settlement], Components.Schemas.SettlementList> {
        settlement.list().wrapped("settlements", in: { .init(settlements: $0) }, { $0.settlements })
    }

    static var payment: WireValue<ExpensesAPI.PaymentDraft, Components.Schemas.SettleUpRequest> {
        WireValue(
            read: { wire, _ throws(APIProblem) in
                ExpensesAPI.PaymentDraft(
                    counterparty: try userID.read(wire.counterparty, "/counterparty"), userPaid: wire.paidBy == .me,
                    amount: try money(wire.amount.minorUnits, wire.amount.currency, field: "/amount"), day: try day.read(wire.day, "/day"),
                    group: try wire.group.map { group throws(APIProblem) in try groupID.read(group, "/group") }
                )
            },
            write: { payment in
                .init(
                    counterparty: payment.counterparty.rawValue, paidBy: payment.userPaid ? .me : .counterparty,
                    amount: .init(minorUnits: payment.amount.minorUnits, currency: payment.amount.currency.code), day: payment.day.description,
                    group: payment.group?.rawValue
                )
            }
        )
    }

    /// `1 base = rate quote`, the rate an exact decimal.
    static var exchangeRate: WireValue<ExchangeRate, Components.Schemas.ExchangeRate> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                let base = try currency.read(wire.base, "\(field)/base")
                let quote = try currency.read(wire.quote, "\(field)/quote")
                guard let published = PublishedRate(wire.rate) else {
                    throw .invalidRequest("\(field)/rate is a decimal above zero, like 162.51, with at most 15 digits, 9 of them decimals.", field: "\(field)/rate")
                }
                guard let rate = ExchangeRate(base: base, quote: quote, rate: published) else {
                    throw .invalidRequest("\(field) is between two different currencies.", field: "\(field)/quote")
                }
                return rate
            },
            write: { .init(base: $0.base.code, quote: $0.quote.code, rate: $0.rate.description) }
        )
    }

    static var conversion: WireValue<ExpensesAPI.ConversionDraft, Components.Schemas.ConversionRequest> {
        WireValue(
            read: { wire, _ throws(APIProblem) in
                ExpensesAPI.ConversionDraft(
                    counterparty: try userID.read(wire.counterparty, "/counterparty"),
                    balance: try money(wire.balance.minorUnits, wire.balance.currency, field: "/balance"),
                    rate: try exchangeRate.read(wire.rate, "/rate"), source: wire.source, day: try day.read(wire.day, "/day"),
                    group: try wire.group.map { group throws(APIProblem) in try groupID.read(group, "/group") }
                )
            },
            write: { draft in
                .init(
                    counterparty: draft.counterparty.rawValue, balance: .init(minorUnits: draft.balance.minorUnits, currency: draft.balance.currency.code),
                    rate: exchangeRate.write(draft.rate), source: draft.source, day: draft.day.description, group: draft.group?.rawValue
                )
            }
        )
    }

    static var balanceList: WireValue<[Balance], Components.Schemas.BalanceList> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                var balances: [Balance] = []
                for balance in wire.balances { balances.append(Balance(other: UserID(rawValue: balance.other), amount: try money.read(balance.amount, field))) }
                return balances
            },
            write: { .init(balances: $0.map { .init(other: $0.other.rawValue, amount: money.write($0.amount)) }) }
        )
    }

    static var suggestedPaymentList: WireValue<[SuggestedPayment], Components.Schemas.SuggestedPaymentList> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                var payments: [SuggestedPayment] = []
                for payment in wire.payments {
                    payments.append(.init(from: UserID(rawValue: payment.from), to: UserID(rawValue: payment.to), amount: try money.read(payment.amount, field)))
                }
                return payments
            },
            write: { .init(payments: $0.map { .init(from: $0.from.rawValue, to: $0.to.rawValue, amount: money.write($0.amount)) }) }
        )
    }

    public static var expenseHistory: WireValue<[ExpenseChange], Components.Schemas.ExpenseHistory> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                var changes: [ExpenseChange] = []
                for (index, change) in wire.changes.enumerated() {
                    guard let kind = Activity.Kind(rawValue: change.kind.rawValue) else { throw .invalidRequest("\(field) has a kind this app does not know.") }
                    let expense = try change.expense.map { expense throws(APIProblem) in try Wire.expense.read(expense, "\(field)/changes/\(index)/expense") }
                    changes.append(ExpenseChange(kind: kind, by: UserID(rawValue: change.by), at: change.at, expense: expense))
                }
                return changes
            },
            write: { changes in
                .init(changes: changes.map { change in
                    .init(
                        kind: Components.Schemas.ExpenseChange.KindPayload(rawValue: change.kind.rawValue) ?? .edited, by: change.by.rawValue, at: change.at,
                        expense: change.expense.map(Wire.expense.write)
                    )
                })
            }
        )
    }

    public static var paymentHistory: WireValue<[PaymentChange], Components.Schemas.PaymentHistory> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                var changes: [PaymentChange] = []
                for (index, change) in wire.changes.enumerated() {
                    let payment = try change.payment.map { payment throws(APIProblem) in
                        try Wire.settlement.read(payment, "\(field)/changes/\(index)/payment")
                    }
                    let kind: Activity.Kind = change.kind == .settled ? .settled : .unsettled
                    changes.append(PaymentChange(kind: kind, by: UserID(rawValue: change.by), at: change.at, payment: payment))
                }
                return changes
            },
            write: { changes in
                .init(changes: changes.map { change in
                    .init(
                        kind: change.kind == .unsettled ? .unsettled : .settled, by: change.by.rawValue, at: change.at,
                        payment: change.payment.map(Wire.settlement.write)
                    )
                })
            }
        )
    }

    static var activity: WireValue<[Activity], Components.Schemas.ActivityList> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                var activity: [Activity] = []
                for entry in wire.activity {
                    guard let kind = Activity.Kind(rawValue: entry.kind.rawValue) else { throw .invalidRequest("\(field) has a kind this app does not know.") }
                    activity.append(Activity(
                        kind: kind, actor: UserID(rawValue: entry.actor), subject: ExpenseID(rawValue: entry.subject), summary: entry.summary, at: entry.at
                    ))
                }
                return activity
            },
            write: { activity in
                .init(activity: activity.map {
                    .init(
                        kind: Components.Schemas.ActivityKind(rawValue: $0.kind.rawValue) ?? .edited, actor: $0.actor.rawValue,
                        subject: $0.subject.rawValue, summary: $0.summary, at: $0.at
                    )
                })
            }
        )
    }

    static var spendingReport: WireValue<SpendingReport, Components.Schemas.SpendingReport> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                var byCategory: [SpendingReport.Line] = []
                for line in wire.byCategory { byCategory.append(.init(label: line.label, amount: try money.read(line.amount, field))) }
                var byMonth: [SpendingReport.Line] = []
                for line in wire.byMonth { byMonth.append(.init(label: line.label, amount: try money.read(line.amount, field))) }
                return SpendingReport(byCategory: byCategory, byMonth: byMonth)
            },
            write: { report in
                let lines = { (lines: [SpendingReport.Line]) in lines.map { Components.Schemas.SpendingLine(label: $0.label, amount: money.write($0.amount)) } }
                return .init(byCategory: lines(report.byCategory), byMonth: lines(report.byMonth))
            }
        )
    }

    static var currencyList: WireValue<[Currency], Components.Schemas.CurrencyList> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                var currencies: [Currency] = []
                for entry in wire.currencies { currencies.append(try currency.read(entry.code, field)) }
                return currencies
            },
            write: { .init(currencies: $0.map { .init(code: $0.code, decimals: Int32($0.decimals)) }) }
        )
    }
}

// MARK: - Within groups

extension Wire {
    static var debtList: WireValue<[Debt], Components.Schemas.DebtList> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                var debts: [Debt] = []
                for debt in wire.debts {
                    debts.append(Debt(debtor: UserID(rawValue: debt.debtor), creditor: UserID(rawValue: debt.creditor), amount: try money.read(debt.amount, field)))
                }
                return debts
            },
            write: { .init(debts: $0.map { .init(debtor: $0.debtor.rawValue, creditor: $0.creditor.rawValue, amount: money.write($0.amount)) }) }
        )
    }

    static var groupTotals: WireValue<GroupTotals, Components.Schemas.GroupTotals> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                var members: [GroupTotals.Line] = []
                for line in wire.byMember { members.append(.init(key: line.key, amount: try money.read(line.amount, field))) }
                var categories: [GroupTotals.Line] = []
                for line in wire.byCategory { categories.append(.init(key: line.key, amount: try money.read(line.amount, field))) }
                return GroupTotals(byMember: members, byCategory: categories)
            },
            write: { totals in
                .init(
                    byMember: totals.byMember.map { .init(key: $0.key, amount: money.write($0.amount)) },
                    byCategory: totals.byCategory.map { .init(key: $0.key, amount: money.write($0.amount)) }
                )
            }
        )
    }

    static var groupBalanceList: WireValue<[GroupBalance], Components.Schemas.GroupBalanceList> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                var balances: [GroupBalance] = []
                for balance in wire.balances {
                    balances.append(GroupBalance(
                        group: GroupID(rawValue: balance.group), other: UserID(rawValue: balance.other), amount: try money.read(balance.amount, field)
                    ))
                }
                return balances
            },
            write: { .init(balances: $0.map { .init(group: $0.group.rawValue, other: $0.other.rawValue, amount: money.write($0.amount)) }) }
        )
    }
}
