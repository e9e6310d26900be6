/// A validated email address.
///
/// Surrounding whitespace is trimmed and the text is put in Unicode Normalization Form C. Two
/// addresses that differ only in letter case are the same account: ``key`` is the form used for
/// uniqueness and look-ups.
public struct EmailAddress: ValidatedText {
    /// The address as the user typed it, trimmed.
    public let value: String

    /// The address in lower case: what uniqueness and sign-in compare.
    public var key: String { Self.key(for: value) }

    /// The look-up key of any typed text, valid address or not: trimmed, NFC, lower case. Sign-in
    /// looks accounts up by it.
    public static func key(for raw: String) -> String {
        raw.trimmingWhitespace().normalizedNFC.lowercased().normalizedNFC
    }

    /// The longest address accepted (RFC 5321's limit on a forward path).
    public static let maximumLength = 254

    /// Validates and trims `raw`.
    public init(_ raw: String) throws(Problem) {
        let trimmed = raw.trimmingWhitespace().normalizedNFC
        guard !trimmed.isEmpty else { throw .empty }
        guard !trimmed.containsControlCharacters else { throw .controlCharacters }
        guard !trimmed.unicodeScalars.contains(where: \.isInvisible) else { throw .invisibleCharacters }
        guard trimmed.utf8.count <= Self.maximumLength else { throw .tooLong }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .shape }
        let local = parts[0]
        let domain = parts[1]
        guard !local.isEmpty, local.utf8.count <= 64,
              !local.contains(where: { $0.isWhitespace || "()<>[]\\,;:\"".contains($0) }),
              !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..")
        else { throw .shape }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2,
              labels.allSatisfy({ label in
                  !label.isEmpty && label.count <= 63
                      && !label.hasPrefix("-") && !label.hasSuffix("-")
                      && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
              }),
              let last = labels.last, last.count >= 2, last.allSatisfy(\.isLetter)
        else { throw .shape }
        value = trimmed
    }

    /// Why a text is not an email address.
    public enum Problem: ValidationProblem, CaseIterable {
        case empty
        case controlCharacters
        case invisibleCharacters
        case tooLong
        case shape

        /// What the user should do, in one sentence.
        public var message: String {
            switch self {
            case .empty: "Enter your email address."
            case .controlCharacters: "An email address cannot contain control characters."
            case .invisibleCharacters: "An email address cannot contain invisible characters (zero-width or direction marks)."
            case .tooLong: "An email address has at most \(EmailAddress.maximumLength) characters."
            case .shape: "Enter an email address like name@example.com."
            }
        }
    }
}
