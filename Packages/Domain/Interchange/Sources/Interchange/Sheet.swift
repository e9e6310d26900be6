import Expenses
import Primitives

/// What a file to import holds, read by its format's rules into no format at all: the people it
/// names, its expenses and payments in minor units, and the totals it states for itself (already
/// checked against its rows when it was read).
public struct Sheet: Equatable, Sendable {
    /// The format it was read as (`splitwise`, ...).
    public var format: String
    /// The people it names, as it names them; entries refer to them by their place here.
    public var people: [String]
    /// The emails it gives for people, by their place.
    public var emails: [Int: String]
    /// The person whose ledger it was exported from, if it says.
    public var exporter: Int?
    public var entries: [SheetEntry]
    /// Rows read and taken as nothing (they move no balance), with why.
    public var passed: [SheetNote]

    public init(
        format: String, people: [String], emails: [Int: String] = [:], exporter: Int? = nil, entries: [SheetEntry], passed: [SheetNote] = []
    ) {
        self.format = format
        self.people = people
        self.emails = emails
        self.exporter = exporter
        self.entries = entries
        self.passed = passed
    }
}

/// One expense or payment of a sheet.
public struct SheetEntry: Equatable, Sendable {
    /// What moved between the people, by their places in ``Sheet/people``.
    public enum Movement: Equatable, Sendable {
        /// Who paid how much, and whose part is how much, in order (which pairs an expense's
        /// balances follows it): each adds up to the amount.
        case expense(paid: Shares, parts: Shares)
        /// One person paid another the amount.
        case payment(from: Int, to: Int)
    }

    /// Where it is in the file (its record, the header being 1), for reports.
    public var row: Int
    public var day: Day
    public var description: String
    public var category: Category
    public var amount: Money
    public var movement: Movement
    /// The same for the same row in any read of the file, and in a later export of the same
    /// history with more rows: importing again adds nothing twice.
    public var key: String
    public var note: String?
    /// The group it was filed under, by name.
    public var group: String?
    /// Its id in the ledger it was exported from (Flows' own export), kept when imported.
    public var id: String?

    public init(
        row: Int, day: Day, description: String, category: Category, amount: Money, movement: Movement, key: String, note: String? = nil,
        group: String? = nil, id: String? = nil
    ) {
        self.id = id
        self.note = note
        self.group = group
        self.row = row
        self.day = day
        self.description = description
        self.category = category
        self.amount = amount
        self.movement = movement
        self.key = key
    }

    /// Each person's net in it, in minor units: what they paid less their part (a payment's
    /// payer gains what its payee loses). People with nothing in it are absent.
    public var nets: [Int: Int64] {
        switch movement {
        case .expense(let paid, let parts):
            var nets: [Int: Int64] = [:]
            for share in paid.list { nets[share.person, default: 0] += share.amount }
            for share in parts.list { nets[share.person, default: 0] -= share.amount }
            return nets.filter { $0.value != 0 }
        case .payment(let from, let to):
            return [from: amount.minorUnits, to: -amount.minorUnits]
        }
    }

    /// Whether it is a payment (not an expense).
    public var isPayment: Bool {
        if case .payment = movement { true } else { false }
    }

    /// Everyone in it: payers and people with a part, or a payment's two.
    public var people: Set<Int> {
        switch movement {
        case .expense(let paid, let parts): Set(paid.list.map(\.person) + parts.list.map(\.person))
        case .payment(let from, let to): [from, to]
        }
    }
}

/// Amounts by person, in order: `[0: 900, 2: 300]`.
public struct Shares: Equatable, Sendable, ExpressibleByDictionaryLiteral {
    public struct Share: Equatable, Sendable {
        public var person: Int
        public var amount: Int64

        public init(person: Int, amount: Int64) {
            self.person = person
            self.amount = amount
        }
    }

    public var list: [Share]

    public init(_ list: [Share]) {
        self.list = list
    }

    public init(dictionaryLiteral elements: (Int, Int64)...) {
        list = elements.map { Share(person: $0.0, amount: $0.1) }
    }

    /// The amount of `person`, if they have one.
    public subscript(person: Int) -> Int64? { list.first { $0.person == person }?.amount }
}

/// A row read and taken as nothing, or a row that could not be read, with why.
public struct SheetNote: Equatable, Sendable, CustomStringConvertible {
    /// The record in the file (the header being 1); nil for the file as a whole.
    public var row: Int?
    public var message: String

    public init(row: Int?, _ message: String) {
        self.row = row
        self.message = message
    }

    public var description: String { row.map { "Row \($0): \(message)" } ?? message }
}

/// Why a file cannot be imported: every row that disagrees, and the totals that do not match.
/// Nothing was written.
public struct SheetProblems: Error, Equatable, Sendable {
    public var problems: [SheetNote]

    public init(_ problems: [SheetNote]) {
        self.problems = problems
    }
}
