import Primitives

/// What a group is for; it changes only how it is shown.
public enum GroupKind: String, Sendable, Codable, CaseIterable, SavedAsText {
    case trip, home, couple, other
}

/// People who share costs together, apart from the rest of what they share: a flat, a trip,
/// a couple, a team. Its expenses and payments are the Expenses area's, filed under its id.
public struct Group: Equatable, Sendable, Codable {
    public let id: GroupID
    /// Checked by the rules of a display name.
    public let name: String
    public let kind: GroupKind
    /// What its expenses are in unless said otherwise.
    public let currency: Currency
    /// Whether its suggested payments may ask someone to pay a member they owe nothing, so that
    /// fewer payments settle everyone.
    public let simplifyDebts: Bool
    /// Its members in the order they joined; the one who made it comes first.
    public let members: [UserID]
    /// An archived group is kept, with its expenses, but shown apart and takes nothing new.
    public let archived: Bool
    public let createdBy: UserID

    /// The most members a group has: as many as one expense may name.
    public static let memberLimit = 200

    public init(
        id: GroupID, name: String, kind: GroupKind, currency: Currency, simplifyDebts: Bool, members: [UserID], archived: Bool,
        createdBy: UserID
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.currency = currency
        self.simplifyDebts = simplifyDebts
        self.members = members
        self.archived = archived
        self.createdBy = createdBy
    }

    /// What can be changed of it without changing who is in it.
    public var settings: GroupSettings {
        GroupSettings(name: name, kind: kind, currency: currency, simplifyDebts: simplifyDebts)
    }
}

/// A group's name, kind, currency and whether it simplifies debts: what creating one fills in
/// besides its members, and what editing one may change.
public struct GroupSettings: Equatable, Sendable {
    public var name: String
    public var kind: GroupKind
    public var currency: Currency
    public var simplifyDebts: Bool

    public init(name: String, kind: GroupKind = .other, currency: Currency, simplifyDebts: Bool = true) {
        self.name = name
        self.kind = kind
        self.currency = currency
        self.simplifyDebts = simplifyDebts
    }

    /// The first rule the settings break, in the words a form shows; nil when they are fine.
    public var problem: GroupProblem? {
        do {
            _ = try DisplayName(name)
            return nil
        } catch {
            return .name(error)
        }
    }
}

/// What a user fills in to make a group: its settings, and the people besides themselves (their
/// friends and their own contacts).
public struct GroupDraft: Equatable, Sendable {
    public var settings: GroupSettings
    public var members: [UserID]

    public init(settings: GroupSettings, members: [UserID]) {
        self.settings = settings
        self.members = members
    }

    public init(name: String, kind: GroupKind = .other, currency: Currency, simplifyDebts: Bool = true, members: [UserID]) {
        self.init(settings: GroupSettings(name: name, kind: kind, currency: currency, simplifyDebts: simplifyDebts), members: members)
    }
}

/// Why settings or members are not a group's.
public enum GroupProblem: Error, Equatable, Sendable {
    case name(DisplayName.Problem)
    case tooManyMembers

    public var message: String {
        switch self {
        case .name(let problem): problem.message
        case .tooManyMembers: "A group has at most \(Group.memberLimit) members."
        }
    }
}
