import Expenses
import Primitives

/// Importing a file's expenses and payments into a user's ledger.
///
/// Every method takes the acting user, writes only what that user is in, and names only their
/// friends and contacts (or the members of a group of theirs).
public protocol InterchangeService: Sendable {
    /// What importing `sheet` would do for `user`: whom each person in it is, what it would add,
    /// and what it leaves out. Nothing is written.
    func plan(_ sheet: Sheet, options: ImportOptions, by user: UserID) async throws(InterchangeError) -> ImportPlan
    /// Imports `sheet`: the contacts and the group it needs are made first, then every entry the
    /// user is in and has not imported before is written, in one transaction. `progress`, if
    /// given, hears how many entries are written as it goes.
    func run(_ sheet: Sheet, options: ImportOptions, by user: UserID, progress: ImportProgress?) async throws(InterchangeError) -> ImportPlan
    /// Everything `user` is in, as a sheet for a format to write: the user first among its
    /// people, each entry keyed by its id.
    func export(_ filter: ExportFilter, by user: UserID) async throws(InterchangeError) -> Sheet
}

extension InterchangeService {
    /// ``run(_:options:by:progress:)`` without hearing its progress.
    public func run(_ sheet: Sheet, options: ImportOptions, by user: UserID) async throws(InterchangeError) -> ImportPlan {
        try await run(sheet, options: options, by: user, progress: nil)
    }
}

/// What to export.
public struct ExportFilter: Equatable, Sendable {
    /// Only what is filed under the user's group of this name (open or archived).
    public var group: String?
    /// Only what happened on or after this day.
    public var since: Day?

    public init(group: String? = nil, since: Day? = nil) {
        self.group = group
        self.since = since
    }
}

/// How to import: who the user is in the file, who the others are, and where it goes.
public struct ImportOptions: Equatable, Sendable {
    /// The user's name in the file; nil for their display name.
    public var me: String?
    /// People of the file matched by the user, by their name in it (`--map "NAME=EMAIL|contact"`).
    public var matches: [String: PersonMatch]
    /// A group of the user's to file everything under (made when they have none of that name);
    /// without one, an entry goes to the group the file names for it, if any.
    public var group: String?

    public init(me: String? = nil, matches: [String: PersonMatch] = [:], group: String? = nil) {
        self.me = me
        self.matches = matches
        self.group = group
    }
}

/// Whom a person of a file is, as the user says.
public enum PersonMatch: Equatable, Sendable {
    /// The friend, or the contact, with this email.
    case email(String)
    /// The user's contact of that name, made if they have none.
    case contact
}

/// What an import does.
public struct ImportPlan: Equatable, Sendable {
    /// One person of the file and whom they are.
    public struct Person: Equatable, Sendable {
        public enum Match: Equatable, Sendable {
            case you
            /// A friend or a contact of the user's, by their id and the name the user knows them by.
            case friend(UserID, name: String)
            /// A contact to be made (made already, once the import ran).
            case newContact
            /// Someone the user shares nothing with in the file: not needed.
            case notNeeded
        }

        public var name: String
        public var match: Match

        public init(name: String, match: Match) {
            self.name = name
            self.match = match
        }
    }

    public var format: String
    public var people: [Person]
    /// The entries written (or to be written): the user is in them and did not import them before.
    public var adding: [SheetEntry]
    /// How many of the user's entries were imported before, and are passed over.
    public var alreadyImported: Int
    /// Rows left out: the user is not in them, or they move no balance.
    public var leftOut: [SheetNote]
    /// The groups its entries go to, by name, and whether each is to be made.
    public var groups: [PlannedGroup]

    public init(format: String, people: [Person], adding: [SheetEntry], alreadyImported: Int, leftOut: [SheetNote], groups: [PlannedGroup] = []) {
        self.format = format
        self.people = people
        self.adding = adding
        self.alreadyImported = alreadyImported
        self.leftOut = leftOut
        self.groups = groups
    }
}

/// A group an import files entries under: one of the user's open groups, or one it makes.
public struct PlannedGroup: Equatable, Sendable {
    public var name: String
    public var isNew: Bool

    public init(name: String, isNew: Bool) {
        self.name = name
        self.isNew = isNew
    }
}

/// Why an import cannot go on; nothing was written.
public enum InterchangeError: Error, Equatable, Sendable {
    /// The file disagrees with itself: every row that does.
    case sheet(SheetProblems)
    /// The user is not one of the people of the file under the name given (or their own).
    case whoAreYou(String?, among: [String])
    /// People the user shares entries with in the file who are none of their friends or
    /// contacts: each needs a `--map`.
    case unmatched([String])
    /// A `--map` names no one: its name is not in the file, or its email is no friend's or contact's.
    case badMatch(String)
    /// An entry was refused by the ledger's rules (its row, and why).
    case refused(row: Int?, String)
    /// The user has no group of that name.
    case noSuchGroup(String)
    case storeUnavailable(String)

    public var message: String {
        switch self {
        case .sheet(let problems):
            "The file cannot be imported; nothing was written:\n" + problems.problems.map { "  \($0)" }.joined(separator: "\n")
        case .whoAreYou(let name?, let people):
            "\(name) is not one of the people in the file (\(people.joined(separator: ", "))): pass --me with your name there."
        case .whoAreYou(nil, let people):
            "Which one is you? Pass --me with your name in the file (\(people.joined(separator: ", ")))."
        case .unmatched(let names):
            "Not among your friends or contacts: \(names.joined(separator: ", ")). For each, pass --map \"NAME=EMAIL\" (a friend's or contact's email) or --map \"NAME=contact\" (made a contact)."
        case .badMatch(let reason): reason
        case .refused(let row?, let reason): "Row \(row) cannot be imported: \(reason) Nothing was written."
        case .refused(nil, let reason): "The file cannot be imported: \(reason) Nothing was written."
        case .noSuchGroup(let name): "You have no group named \(name)."
        case .storeUnavailable(let reason): "The local store is unavailable: \(reason)"
        }
    }
}
