/// A value the store keeps as a short text: an enum case, a currency code.
public protocol SavedAsText {
    /// The stored text; it never changes once released, whatever the Swift names become.
    var savedText: String { get }
    init?(savedText: String)
}

extension SavedAsText where Self: RawRepresentable, RawValue == String {
    public var savedText: String { rawValue }
    public init?(savedText: String) { self.init(rawValue: savedText) }
}

/// The one place that turns stored texts into values and back (the Mintee / Mu rule): a text
/// the app does not know is an error that names it, never a crash or a silent default.
public enum SaveFormatter {
    public static func text(_ value: some SavedAsText) -> String {
        value.savedText
    }

    public static func value<Value: SavedAsText>(_ type: Value.Type, from text: String) throws(SaveFormatError) -> Value {
        guard let value = Value(savedText: text) else { throw SaveFormatError(type: "\(Value.self)", text: text) }
        return value
    }
}

/// A stored text that is not a value of its type: the store was written by another version, or
/// damaged.
public struct SaveFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    public var type: String
    public var text: String

    public init(type: String, text: String) {
        self.type = type
        self.text = text
    }

    public var description: String { "the store holds \"\(text)\", which is not a \(type)" }
}

extension Currency: SavedAsText {
    public var savedText: String { code }
    public init?(savedText: String) {
        // Stored codes are upper case; a lower-case one is not ours.
        guard savedText == savedText.uppercased() else { return nil }
        self.init(code: savedText)
    }
}

/// How the app is coloured: a stored preference.
public enum Theme: String, Sendable, Codable, CaseIterable, SavedAsText {
    case light
    case dark
    case highContrast = "high-contrast"
    case noColour = "no-colour"
}
