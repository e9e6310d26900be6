/// The name other people see: 1 to 50 characters after trimming, no control characters.
public struct DisplayName: ValidatedText {
    public let value: String


    /// The longest name accepted, in characters as people count them.
    public static let maximumLength = 50

    /// Validates and trims `raw`.
    public init(_ raw: String) throws(Problem) {
        let trimmed = raw.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw .empty }
        guard !trimmed.containsControlCharacters else { throw .controlCharacters }
        guard trimmed.count <= Self.maximumLength else { throw .tooLong }
        value = trimmed
    }

    /// Why a text is not a display name.
    public enum Problem: ValidationProblem, CaseIterable {
        case empty
        case controlCharacters
        case tooLong

        /// What the user should do, in one sentence.
        public var message: String {
            switch self {
            case .empty: "Enter a name of 1 to \(DisplayName.maximumLength) characters."
            case .controlCharacters: "A name cannot contain control characters."
            case .tooLong: "A name has at most \(DisplayName.maximumLength) characters."
            }
        }
    }
}
