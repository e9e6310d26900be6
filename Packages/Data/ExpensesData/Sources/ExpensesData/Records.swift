/// A stored expense with its payers and parts. Plain values: the domain checks, the store keeps.
/// An expense as the store keeps it. Its JSON form (``ActivityRecord/snapshot``) uses the
/// property names as keys: renaming one is a change of the stored format.
public struct StoredExpense: Equatable, Sendable, Codable {
    public var id: String
    public var description: String
    /// Minor units.
    public var amount: Int64
    public var currency: String
    /// `yyyy-MM-dd`.
    public var day: String
    public var category: String
    public var splitMode: String
    public var createdBy: String
    /// Seconds since 1970, UTC.
    public var createdAt: Double
    public var payers: [Payer]
    public var parts: [Part]
    public var note: String?
    /// 1 when added, one more with each edit.
    public var version: Int64
    /// The group it is filed under, if any (absent from changes kept before groups).
    public var group: String?

    public struct Payer: Equatable, Sendable, Codable {
        public var user: String
        public var amount: Int64
        public init(user: String, amount: Int64) {
            self.user = user
            self.amount = amount
        }
    }

    public struct Part: Equatable, Sendable, Codable {
        public var user: String
        public var amount: Int64
        /// What the rule gave this person: exact units, basis points or shares; nil for equal.
        public var ruleValue: Int64?
        public init(user: String, amount: Int64, ruleValue: Int64?) {
            self.user = user
            self.amount = amount
            self.ruleValue = ruleValue
        }
    }

    public init(
        id: String, description: String, amount: Int64, currency: String, day: String, category: String,
        splitMode: String, createdBy: String, createdAt: Double, payers: [Payer], parts: [Part], note: String? = nil, version: Int64 = 1,
        group: String? = nil
    ) {
        self.version = version
        self.group = group
        self.id = id
        self.description = description
        self.amount = amount
        self.currency = currency
        self.day = day
        self.category = category
        self.splitMode = splitMode
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.payers = payers
        self.parts = parts
        self.note = note
    }
}

/// A stored payment between two people; as JSON, what a payment's changes keep of it.
public struct SettlementRecord: Equatable, Sendable, Codable {
    public var id: String
    public var from: String
    public var to: String
    public var amount: Int64
    public var currency: String
    public var day: String
    public var createdBy: String
    public var createdAt: Double
    /// The balances the payment moved, when not only the payer's and payee's: it cleared what
    /// they owed each other through someone else. Empty: `to` owes `from` `amount` more.
    public var legs: [Leg]
    /// The group it settles within, if any: then it moved the group's balances too.
    public var group: String?
    /// Set for a conversion: `from` owes `to` this much in another currency for what it paid.
    public var conversion: Conversion?

    /// Everyone it names: the payer, the payee, and those it passed through (whose balances
    /// its legs moved), each once.
    public var people: [String] {
        var named = [from, to]
        for leg in legs {
            for person in [leg.creditor, leg.debtor] where !named.contains(person) { named.append(person) }
        }
        return named
    }

    /// `amount` more that `debtor` owes `creditor` (less that the creditor owes the debtor).
    public struct Leg: Equatable, Sendable, Codable {
        public var creditor: String
        public var debtor: String
        public var amount: Int64

        public init(creditor: String, debtor: String, amount: Int64) {
            self.creditor = creditor
            self.debtor = debtor
            self.amount = amount
        }
    }

    /// A conversion's other side: `amount` of `currency`, at 1 `rateBase` = `rate` of the other
    /// of the two currencies, as `source` gave it.
    public struct Conversion: Equatable, Sendable, Codable {
        public var amount: Int64
        public var currency: String
        public var rateBase: String
        public var rate: String
        public var source: String

        public init(amount: Int64, currency: String, rateBase: String, rate: String, source: String) {
            self.amount = amount
            self.currency = currency
            self.rateBase = rateBase
            self.rate = rate
            self.source = source
        }
    }

    /// The conversion a row's columns keep: nil when they are all empty (a payment). A row with
    /// some of them only is read as a payment too; the ledger check finds it out.
    public static func conversion(amount: Int64?, currency: String?, rateBase: String?, rate: String?, source: String?) -> Conversion? {
        guard let amount, let currency, let rateBase, let rate, let source else { return nil }
        return Conversion(amount: amount, currency: currency, rateBase: rateBase, rate: rate, source: source)
    }

    public init(
        id: String, from: String, to: String, amount: Int64, currency: String, day: String, createdBy: String, createdAt: Double, legs: [Leg] = [],
        group: String? = nil, conversion: Conversion? = nil
    ) {
        self.group = group
        self.conversion = conversion
        self.id = id
        self.from = from
        self.to = to
        self.amount = amount
        self.currency = currency
        self.day = day
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.legs = legs
    }
}

/// A pair's balance in one currency: minor units `high` owes `low` (`low` < `high`).
public struct BalanceRecord: Equatable, Sendable {
    public var low: String
    public var high: String
    public var currency: String
    public var amount: Int64

    public init(low: String, high: String, currency: String, amount: Int64) {
        self.low = low
        self.high = high
        self.currency = currency
        self.amount = amount
    }
}

/// A pair's balance in one currency within one group: what `high` owes `low` there. The pair's
/// overall ``BalanceRecord`` includes it.
public struct GroupBalanceRecord: Equatable, Sendable {
    public var group: String
    public var low: String
    public var high: String
    public var currency: String
    public var amount: Int64

    public init(group: String, low: String, high: String, currency: String, amount: Int64) {
        self.group = group
        self.low = low
        self.high = high
        self.currency = currency
        self.amount = amount
    }
}

/// One line of the activity list, and the people it concerns.
public struct ActivityRecord: Equatable, Sendable {
    public var id: String
    public var at: Double
    public var actor: String
    public var kind: String
    public var subject: String
    public var summary: String
    public var people: [String]
    /// For a change to an expense, the expense as the change left it (as it was, for a delete),
    /// whole: a ``StoredExpense`` as JSON; for a payment recorded or taken back, the payment: a
    /// ``SettlementRecord`` as JSON. Nil for changes made before they were kept whole.
    public var snapshot: String?

    public init(id: String, at: Double, actor: String, kind: String, subject: String, summary: String, people: [String], snapshot: String? = nil) {
        self.id = id
        self.at = at
        self.actor = actor
        self.kind = kind
        self.subject = subject
        self.summary = summary
        self.people = people
        self.snapshot = snapshot
    }
}

/// A sum of one user's parts, grouped by a category or a month, in one currency.
public struct SpendingRecord: Equatable, Sendable {
    public var group: String
    public var currency: String
    public var amount: Int64

    public init(group: String, currency: String, amount: Int64) {
        self.group = group
        self.currency = currency
        self.amount = amount
    }
}

/// A stored comment on an expense.
public struct CommentRecord: Equatable, Sendable {
    public var id: String
    public var expense: String
    public var author: String
    public var at: Double
    public var text: String

    public init(id: String, expense: String, author: String, at: Double, text: String) {
        self.id = id
        self.expense = expense
        self.author = author
        self.at = at
        self.text = text
    }
}

/// A stored series of recurring expenses: its first expense kept whole as the template of
/// every occurrence, and when it falls.
public struct SeriesRecord: Equatable, Sendable {
    public var id: String
    public var createdBy: String
    public var createdAt: Double
    /// The expense each occurrence copies, as a ``StoredExpense`` in JSON (its id and day are
    /// the first occurrence's; each occurrence has its own).
    public var template: String
    /// `days:3`, `weeks:2`, `monthly:31` or `yearly`.
    public var frequency: String
    /// `yyyy-MM-dd`: the first occurrence.
    public var start: String
    /// The last day an occurrence may fall on, if the series ends by a day (or was stopped).
    public var endDay: String?
    /// How many occurrences in all, if the series ends by a count.
    public var endCount: Int?
    /// Everyone in the template: who sees the series.
    public var people: [String]
    /// 1 when made, one more with each change.
    public var version: Int

    public init(
        id: String, createdBy: String, createdAt: Double, template: String, frequency: String, start: String, endDay: String?, endCount: Int?,
        people: [String], version: Int
    ) {
        self.id = id
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.template = template
        self.frequency = frequency
        self.start = start
        self.endDay = endDay
        self.endCount = endCount
        self.people = people
        self.version = version
    }
}
