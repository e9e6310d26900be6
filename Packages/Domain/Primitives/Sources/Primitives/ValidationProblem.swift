/// Why a value typed by a user is not accepted, with a sentence that says what is.
public protocol ValidationProblem: Error, Equatable, Sendable {
    /// What the user should do, in one sentence.
    var message: String { get }
}

/// Running a check for its message: what an inline field error shows.
public enum Validation {
    /// The message of the problem `check` throws, or nil when it passes.
    public static func message<Problem: ValidationProblem>(_ check: () throws(Problem) -> Void) -> String? {
        do {
            try check()
            return nil
        } catch {
            return error.message
        }
    }
}
