/// The name other people see: 1 to 50 characters after trimming, in Unicode Normalization Form
/// C, with no control or invisible characters.
public struct DisplayName: ValidatedText {
    public let value: String


    /// The longest name accepted, in characters as people count them.
    public static let maximumLength = 50

    /// The most Unicode scalars a name may take: what the store's constraint counts. Only a name
    /// of characters heavy with combining marks or long emoji sequences comes near it.
    public static let maximumScalars = 200

    /// Validates and trims `raw`.
    public init(_ raw: String) throws(Problem) {
        let trimmed = raw.trimmingWhitespace().normalizedNFC
        guard !trimmed.isEmpty else { throw .empty }
        guard !trimmed.containsControlCharacters else { throw .controlCharacters }
        guard !trimmed.containsInvisibleCharacters else { throw .invisibleCharacters }
        guard trimmed.count <= Self.maximumLength else { throw .tooLong }
        guard trimmed.unicodeScalars.count <= Self.maximumScalars else { throw .tooManyMarks }
        value = trimmed
    }

    /// Why a text is not a display name.
    public enum Problem: ValidationProblem, CaseIterable {
        case empty
        case controlCharacters
        case invisibleCharacters
        case tooLong
        case tooManyMarks

        /// What the user should do, in one sentence.
        public var message: String {
            switch self {
            case .empty: "Enter a name of 1 to \(DisplayName.maximumLength) characters."
            case .controlCharacters: "A name cannot contain control characters."
            case .invisibleCharacters: "A name cannot contain invisible characters (zero-width or direction marks)."
            case .tooLong: "A name has at most \(DisplayName.maximumLength) characters."
            case .tooManyMarks: "A name has at most \(DisplayName.maximumScalars) Unicode code points; use fewer accents or emoji."
            }
        }
    }
}
