import Primitives

/// What a new password must be: 8 to 256 characters, no control characters.
///
/// The upper bound keeps hashing cheap for the server side and is far above what people type;
/// passwords are pre-hashed before bcrypt, so every character counts, not only the first 72 bytes.
public enum PasswordRules {
    public static let minimumLength = 8
    public static let maximumLength = 256

    /// Checks a new password; sign-in does not check, it only compares.
    public static func check(_ password: String) throws(Problem) {
        guard password.count >= minimumLength else { throw .tooShort }
        guard password.count <= maximumLength else { throw .tooLong }
        guard !password.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        else { throw .controlCharacters }
    }

    /// Why a password is not accepted.
    public enum Problem: ValidationProblem, CaseIterable {
        case tooShort
        case tooLong
        case controlCharacters

        /// What the user should do, in one sentence.
        public var message: String {
            switch self {
            case .tooShort: "Use at least \(PasswordRules.minimumLength) characters."
            case .tooLong: "Use at most \(PasswordRules.maximumLength) characters."
            case .controlCharacters: "A password cannot contain control characters."
            }
        }
    }
}
