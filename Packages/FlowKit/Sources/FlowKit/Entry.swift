/// What a typed field shows: the text as typed, and what is wrong with it.
public struct TextEntry: Equatable, Sendable {
    public var text: String
    public var error: String?

    public init(_ text: String = "", error: String? = nil) {
        self.text = text
        self.error = error
    }
}

/// What a secret field shows: whether anything is typed, and what is wrong with it. Never the
/// secret itself, which stays with the ViewModel.
public struct SecretEntry: Equatable, Sendable {
    public var isSet: Bool
    public var error: String?

    public init(isSet: Bool = false, error: String? = nil) {
        self.isSet = isSet
        self.error = error
    }
}

extension Field {
    /// A text field showing an entry.
    public init(id: ElementID, label: String, entry: TextEntry, hint: String? = nil, isOptional: Bool = false) {
        self.init(id: id, label: label, input: .text(entry.text), hint: hint, error: entry.error, isOptional: isOptional)
    }

    /// A secret field showing an entry.
    public init(id: ElementID, label: String, entry: SecretEntry, hint: String? = nil) {
        self.init(id: id, label: label, input: .secret(isSet: entry.isSet), hint: hint, error: entry.error)
    }
}
