import FlowsAPI
import FlowsWire
import Primitives

// The shared values in the contract's form, read and written by one pair each, and their
// rules' refusals: a code of the contract names each case of a problem enum, by the case's name.

// MARK: - Values

extension Wire {
    /// A person's id: a lower-case UUID, as the contract's pattern says (`400` otherwise).
    public static var userID: WireValue<UserID, String> {
        WireValue(
            read: { text, field throws(APIProblem) in
                guard WireText.isUUID(text) else { throw .invalidRequest("\(field) is not a person's id (a lower-case UUID).", field: field) }
                return UserID(rawValue: text)
            },
            write: { $0.rawValue }
        )
    }

    /// A group's id: a lower-case UUID (`400` otherwise).
    public static var groupID: WireValue<GroupID, String> {
        WireValue(
            read: { text, field throws(APIProblem) in
                guard WireText.isUUID(text) else { throw .invalidRequest("\(field) is not a group's id (a lower-case UUID).", field: field) }
                return GroupID(rawValue: text)
            },
            write: { $0.rawValue }
        )
    }

    /// A set of ids, as the contract's `UserIDsRequest` has it: at most 1,000, each once.
    public static var userIDs: WireValue<Set<UserID>, Components.Schemas.UserIDsRequest> {
        WireValue(
            read: { request, field throws(APIProblem) in
                let field = "\(field)/ids"
                guard request.ids.count <= WireText.maximumIDs else {
                    throw .invalidRequest("\(field) has at most \(WireText.maximumIDs) ids.", field: field)
                }
                var ids = Set<UserID>()
                for (index, text) in request.ids.enumerated() {
                    guard ids.insert(try Wire.userID.read(text, "\(field)/\(index)")).inserted else {
                        throw .invalidRequest("\(field)/\(index) is there twice: each id is asked for once.", field: "\(field)/\(index)")
                    }
                }
                return ids
            },
            write: { .init(ids: $0.map(\.rawValue).sorted()) }
        )
    }

    /// A list of ids, in its order.
    /// What a look-up shows of an account: id and name.
    public static var profile: WireValue<PublicProfile, Components.Schemas.Profile> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                PublicProfile(id: try userID.read(wire.id, "\(field)/id"), name: try displayName.read(wire.name, "\(field)/name"))
            },
            write: { .init(id: $0.id.rawValue, name: $0.name.value) }
        )
    }

    public static var userIDList: WireValue<[UserID], Components.Schemas.UserIDList> {
        WireValue(read: { list, _ in list.ids.map(UserID.init(rawValue:)) }, write: { .init(ids: $0.map(\.rawValue)) })
    }

    /// A text no longer than the contract's `maxLength` for it (`400` otherwise).
    ///
    /// Checked before the domain reads it: trimming, normalising and counting the characters of
    /// megabytes of combining marks takes seconds, while counting code points is one pass.
    public static func text(atMost limit: Int) -> WireValue<String, String> {
        WireValue(
            read: { text, field throws(APIProblem) in
                // A code point is one to four bytes: only a text between the two bounds needs counting.
                let bytes = text.utf8.count
                guard bytes <= limit || (bytes <= 4 * limit && text.unicodeScalars.count <= limit) else {
                    throw .invalidRequest("\(field) is at most \(limit) characters long.", field: field)
                }
                return text
            },
            write: { $0 }
        )
    }

    /// A person's name, as a server answers it.
    public static var displayName: WireValue<DisplayName, String> {
        WireValue(read: { text, field throws(APIProblem) in try WireText.checked(field) { () throws(DisplayName.Problem) in try DisplayName(text) } }, write: { $0.value })
    }

    public static var email: WireValue<EmailAddress, String> {
        WireValue(read: { text, field throws(APIProblem) in try WireText.checked(field) { () throws(EmailAddress.Problem) in try EmailAddress(text) } }, write: { $0.value })
    }

    public static var friendCode: WireValue<FriendCode, String> {
        WireValue(
            read: { text, field throws(APIProblem) in
                do throws(FriendCodeProblem) { return try FriendCode(text) } catch { throw APIProblem(error, field: field) }
            },
            write: { $0.rawValue }
        )
    }

    /// A currency by its code in upper case, as the contract writes it (`eur` is not one).
    public static var currency: WireValue<Currency, String> {
        WireValue(
            read: { code, field throws(APIProblem) in
                guard let currency = Currency(code: code), currency.code == code else { throw .unknownCurrency(code, field: field) }
                return currency
            },
            write: { $0.code }
        )
    }

    public static var money: WireValue<Money, Components.Schemas.Money> {
        WireValue(
            read: { money, field throws(APIProblem) in
                Money(minorUnits: money.minorUnits, currency: try Wire.currency.read(money.currency, "\(field)/currency"))
            },
            write: { .init(minorUnits: $0.minorUnits, currency: $0.currency.code) }
        )
    }

    /// Money in any of the contract's shapes of it (`Money`, `PositiveMoney`, `NonNegativeMoney`).
    public static func money(_ minorUnits: Int64, _ currency: String, field: String) throws(APIProblem) -> Money {
        Money(minorUnits: minorUnits, currency: try Wire.currency.read(currency, "\(field)/currency"))
    }

    public static var day: WireValue<Day, String> {
        WireValue(
            read: { text, field throws(APIProblem) in
                do throws(Day.Problem) { return try Day(text) } catch { throw .named("invalid-day-", error, field: field) }
            },
            write: { $0.description }
        )
    }
}

/// The contract's rules for texts and ids.
public enum WireText {
    /// The longest texts the contract takes, in Unicode code points (its schemas' `maxLength`).
    public enum Limit {
        public static let email = 254
        public static let displayName = 200
        public static let password = 256
        public static let friendCode = 64
        public static let description = 100
        public static let note = 500
    }

    /// The most ids a request names (the contract's `maxItems`): a client asks for more in
    /// batches of this many.
    public static let maximumIDs = 100

    public static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            switch index {
            case 8, 13, 18, 23: guard byte == UInt8(ascii: "-") else { return false }
            default:
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) else {
                    return false
                }
            }
        }
        return true
    }

    /// A value the domain reads, its problem refused as the contract's code for it.
    static func checked<Value, Problem: WireNamedProblem>(_ field: String, _ read: () throws(Problem) -> Value) throws(APIProblem) -> Value {
        do throws(Problem) { return try read() } catch { throw APIProblem(error, field: field) }
    }
}

// MARK: - Refusals

/// A problem enum of a shared value whose cases the contract names `prefix` + the case's name in
/// kebab case (`EmailAddress.Problem.tooLong`: `invalid-email-too-long`), all `422`.
public protocol WireNamedProblem: ValidationProblem, CaseIterable {
    static var codePrefix: String { get }
}

extension EmailAddress.Problem: WireNamedProblem {
    public static var codePrefix: String { "invalid-email-" }
}

extension DisplayName.Problem: WireNamedProblem {
    public static var codePrefix: String { "invalid-display-name-" }
}

extension Day.Problem: WireNamedProblem {
    public static var codePrefix: String { "invalid-day-" }
}

extension APIProblem {
    /// The refusal for a value's problem: its code by the case's name, its message the domain's.
    public init<Problem: WireNamedProblem>(_ problem: Problem, field: String?) {
        self = .named(Problem.codePrefix, problem, field: field)
    }

    /// `prefix` and the case's name in kebab case; `422` with the domain's message.
    public static func named(_ prefix: String, _ problem: some ValidationProblem, field: String?) -> APIProblem {
        let code = Code(rawValue: prefix + RemoteFailure.kebab(String(describing: problem))) ?? .invalidRequest
        return APIProblem(.unprocessableContent, code, problem.message, details: field.map { .init(field: $0) })
    }

    public init(_ problem: FriendCodeProblem, field: String? = nil) {
        switch problem {
        case .length(let count):
            self.init(.unprocessableContent, .invalidFriendCodeLength, problem.message, details: .init(length: Int32(clamping: count)))
        case .character(let character):
            self.init(.unprocessableContent, .invalidFriendCodeCharacter, problem.message, details: .init(character: String(character)))
        case .check:
            self.init(.unprocessableContent, .invalidFriendCodeCheck, problem.message)
        }
    }

    public static func unknownCurrency(_ code: String, field: String) -> APIProblem {
        // `details.currency` is a code of three capital letters (the contract's CurrencyCode);
        // anything else is named in the message only, cut short.
        let isCode = code.utf8.count == 3 && code.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
        return APIProblem(
            .unprocessableContent, .unknownCurrency, "\(isCode ? code : "\"\(code.prefix(20))\"") is not a currency this server knows.",
            details: .init(field: field, currency: isCode ? code : nil)
        )
    }
}

extension RemoteFailure {
    /// The value's problem a refusal names, by its code.
    public func problem<Problem: WireNamedProblem>(_ type: Problem.Type) -> Problem? {
        problem(type, prefix: Problem.codePrefix)
    }

    /// The friend code's problem a refusal names, with its details.
    public var friendCodeProblem: FriendCodeProblem? {
        switch code {
        case .invalidFriendCodeLength?: .length(Int(details?.length ?? 0))
        case .invalidFriendCodeCharacter?: .character(details?.character?.first ?? "?")
        case .invalidFriendCodeCheck?: .check
        default: nil
        }
    }

    /// A person's name in the details.
    public var detailsName: DisplayName? { details?.name.flatMap { try? DisplayName($0) } }

    /// Money in the details (a balance, a sum).
    public static func money(_ wire: [Components.Schemas.Money]?) -> [Money] {
        (wire ?? []).compactMap { try? Wire.money.read($0, "") }
    }
}
