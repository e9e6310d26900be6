import Accounts
import Expenses
import ExpensesRemote
import FlowsAPI
import FlowsWire
import Foundation
import OpenAPIRuntime
import Primitives
import PrimitivesRemote

// The server's side of the wire: domain values into the contract's types for responses, and
// the contract's types into domain values for requests, refusing what the domain would not
// take with the domain's own codes (docs/api/openapi.yaml). Money and split rules go out in
// the form ExpensesRemote writes them for the client.

// MARK: - Responses

extension Components.Schemas.User {
    init(_ user: User) {
        self.init(id: user.id.rawValue, email: user.email.value, displayName: user.displayName.value, friendCode: user.friendCode.rawValue)
    }
}

extension Components.Schemas.Avatar {
    init(_ avatar: Avatar) {
        switch avatar {
        case .none: self = .none(.init(kind: .none))
        case .initials(let colour): self = .initials(.init(kind: .initials, colour: .init(colour)))
        case .image(let image):
            self = .image(.init(
                kind: .image, format: image.format == .png ? .png : .jpeg, width: Int32(clamping: image.width),
                height: Int32(clamping: image.height), data: Base64EncodedData(image.bytes)
            ))
        }
    }
}

extension Components.Schemas.AvatarColour {
    init(_ colour: AvatarColour) {
        // The contract's palette is the domain's, name for name (a test checks every colour).
        self = Self(rawValue: colour.rawValue) ?? .blue
    }
}

extension Components.Schemas.Expense {
    init(_ expense: Expense) {
        self.init(
            id: expense.id.rawValue,
            description: expense.description,
            amount: .init(expense.amount),
            day: expense.day.description,
            category: Components.Schemas.Category(rawValue: expense.category.rawValue) ?? .general,
            payers: expense.payers.map { .init(user: $0.user.rawValue, amount: .init($0.amount)) },
            split: .init(
                parts: expense.split.parts.map { .init(user: $0.user.rawValue, amount: .init($0.amount)) },
                extraUnits: expense.split.extraUnits.map {
                    .init(
                        user: $0.user.rawValue, remainder: $0.remainder, denominator: $0.denominator, rank: Int32(clamping: $0.rank),
                        wonTie: $0.wonTie
                    )
                }
            ),
            rule: .init(expense.rule),
            note: expense.note
        )
    }
}

extension Components.Schemas.Settlement {
    init(_ settlement: Settlement) {
        self.init(
            id: settlement.id.rawValue, from: settlement.from.rawValue, to: settlement.to.rawValue, amount: .init(settlement.amount),
            day: settlement.day.description,
            legs: settlement.legs.map { .init(creditor: $0.creditor.rawValue, debtor: $0.debtor.rawValue, amount: .init($0.amount)) }
        )
    }
}

extension Components.Schemas.Activity {
    init(_ activity: Activity) {
        self.init(
            kind: Components.Schemas.ActivityKind(rawValue: activity.kind.rawValue) ?? .edited,
            actor: activity.actor.rawValue, subject: activity.subject.rawValue, summary: activity.summary, at: activity.at
        )
    }
}

// MARK: - Requests

/// Reads the values of a request into domain values; `field` is the JSON pointer a refusal
/// names.
enum Read {
    /// A person's id: a lower-case UUID, as the contract's pattern says (`400` otherwise).
    static func userID(_ text: String, field: String) throws(APIProblem) -> UserID { try Wire.userID.read(text, field) }

    static func expenseID(_ text: String, field: String) throws(APIProblem) -> ExpenseID {
        guard WireText.isUUID(text) else { throw .invalidRequest("\(field) is not an id (a lower-case UUID).", field: field) }
        return ExpenseID(rawValue: text)
    }

    /// A currency by its code in upper case, as the contract writes it (`eur` is not one).
    static func currency(_ code: String, field: String) throws(APIProblem) -> Currency { try Wire.currency.read(code, field) }

    static func money(minorUnits: Int64, currency code: String, field: String) throws(APIProblem) -> Money {
        Money(minorUnits: minorUnits, currency: try currency(code, field: "\(field)/currency"))
    }

    static func day(_ text: String, field: String) throws(APIProblem) -> Day {
        try Wire.day.read(text, field)
    }

    typealias Limit = WireText.Limit

    /// `text`, when it is no longer than the contract's `maxLength` for it (`400` otherwise).
    static func text(_ text: String, atMost limit: Int, field: String) throws(APIProblem) -> String {
        try Wire.text(atMost: limit).read(text, field)
    }

    static func avatar(_ change: Components.Schemas.AvatarChange) throws(APIProblem) -> Avatar {
        switch change {
        case .none: return .none
        case .initials(let initials):
            guard let colour = AvatarColour(rawValue: initials.colour.rawValue) else {
                throw .invalidRequest("/colour is not a colour of the palette.", field: "/colour")
            }
            return .initials(colour)
        case .image(let image):
            do throws(AvatarProblem) { return .image(try AvatarImage(bytes: Array(image.data.data))) } catch { throw .avatar(error) }
        }
    }

    static func draft(_ draft: Components.Schemas.ExpenseDraft) throws(APIProblem) -> ExpenseDraft {
        let amount = try money(minorUnits: draft.amount.minorUnits, currency: draft.amount.currency, field: "/amount")
        var payers: [Payer] = []
        for (index, payer) in draft.payers.enumerated() {
            let field = "/payers/\(index)"
            payers.append(Payer(
                user: try userID(payer.user, field: "\(field)/user"),
                amount: try money(minorUnits: payer.amount.minorUnits, currency: payer.amount.currency, field: "\(field)/amount")
            ))
        }
        var participants: [UserID] = []
        for (index, participant) in draft.participants.enumerated() {
            participants.append(try userID(participant, field: "/participants/\(index)"))
        }
        return ExpenseDraft(
            description: try text(draft.description, atMost: Limit.description, field: "/description"),
            amount: amount,
            day: try day(draft.day, field: "/day"),
            category: Category(rawValue: draft.category.rawValue) ?? .general,
            payers: payers,
            participants: participants,
            rule: try rule(draft.rule),
            note: try draft.note.map { note throws(APIProblem) in try text(note, atMost: Limit.note, field: "/note") }
        )
    }

    static func rule(_ rule: Components.Schemas.SplitRule) throws(APIProblem) -> SplitRule {
        switch rule {
        case .equal: return .equal
        case .exact(let exact):
            var amounts: [UserID: Money] = [:]
            for (key, part) in exact.amounts.additionalProperties {
                let field = "/rule/amounts/\(key)"
                amounts[try userID(key, field: field)] = try money(minorUnits: part.minorUnits, currency: part.currency, field: field)
            }
            return .exact(amounts)
        case .percentages(let percentages):
            return .percentages(try keyed(percentages.basisPoints.additionalProperties, field: "/rule/basisPoints"))
        case .shares(let shares):
            return .shares(try keyed(shares.shares.additionalProperties, field: "/rule/shares"))
        }
    }

    private static func keyed(_ values: [String: Int32], field: String) throws(APIProblem) -> [UserID: Int] {
        var result: [UserID: Int] = [:]
        for (key, value) in values { result[try userID(key, field: "\(field)/\(key)")] = Int(value) }
        return result
    }
}
