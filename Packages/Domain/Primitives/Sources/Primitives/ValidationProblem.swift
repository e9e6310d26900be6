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

/// A text that exists only once validated: decoding re-validates, encoding writes the text.
public protocol ValidatedText: Hashable, Sendable, Codable, CustomStringConvertible {
    associatedtype Problem: ValidationProblem

    /// The validated text.
    var value: String { get }

    /// Validates `raw`, throwing what is wrong with it.
    init(_ raw: String) throws(Problem)
}

extension ValidatedText {
    public var description: String { value }

    public init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(raw)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

extension ValidationProblem where Self: CaseIterable {
    /// Every message a check of this kind can give.
    public static var allMessages: [String] { allCases.map(\.message) }
}
