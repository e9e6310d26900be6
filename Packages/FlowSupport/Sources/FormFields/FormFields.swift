import Accounts
import FlowKit
import Primitives

extension TextEntry {
    /// The text as typed, with what `Value`'s rules find wrong with it, in the domain's words:
    /// `TextEntry(email, as: EmailAddress.self)`.
    public init<Value: ValidatedText>(_ text: String, as value: Value.Type) {
        self.init(text, error: Validation.message { () throws(Value.Problem) in _ = try Value(text) })
    }
}

/// A secret that a form holds until it is sent (a password), for the service only. What its
/// field shows is the ViewState's entry, which each change writes (`shown`), so the two cannot
/// part.
public struct SecretInput: Sendable {
    /// What the secret must be before the form is sent.
    public enum Rule: Sendable {
        /// Anything but nothing, with this message for nothing: a password that proves who the
        /// user is, which may have been made under older rules.
        case required(String)
        /// A new password, under the domain's ``PasswordRules``.
        case newPassword
    }

    public let rule: Rule
    /// The secret as typed.
    public private(set) var value = ""

    public init(_ rule: Rule) {
        self.rule = rule
    }

    /// The secret as typed now, checked under the rule.
    public mutating func typed(_ value: String, shown: inout SecretEntry) {
        self.value = value
        shown = SecretEntry(isSet: !value.isEmpty, error: problem(with: value))
    }

    /// The service refused the secret: it is cleared, to be typed again, under `message`.
    public mutating func refused(_ message: String, shown: inout SecretEntry) {
        value = ""
        shown = SecretEntry(isSet: false, error: message)
    }

    /// Clears the secret, to be typed again, with no message on the field.
    public mutating func clear(shown: inout SecretEntry) {
        value = ""
        shown = SecretEntry()
    }

    private func problem(with value: String) -> String? {
        switch rule {
        case .required(let message): value.isEmpty ? message : nil
        case .newPassword: Validation.message { () throws(PasswordRules.Problem) in try PasswordRules.check(value) }
        }
    }
}

/// A day as typed (`2026-11-22`, `today`, `yesterday` or a weekday), read against today under
/// the domain's rules: what an expense's, a payment's and a report's day fields hold.
public struct DayEntry: Equatable, Sendable {
    /// The day as typed.
    public var text: String
    /// The day `today`, `yesterday` and weekdays are read from.
    public let today: Day

    public init(_ text: String, today: Day) {
        self.text = text
        self.today = today
    }

    /// The day the text names, or nil.
    public var day: Day? { try? Day(typed: text, today: today) }

    /// What the field shows it read the text as (`Monday 2027-01-11`); nil until it reads.
    public var read: String? { day?.withWeekday }

    /// What is wrong with the text, in the domain's words; nil for a day.
    public var problem: String? {
        let (text, today) = (text, today)
        return Validation.message { () throws(Day.Problem) in _ = try Day(typed: text, today: today) }
    }
}
