import Foundation
import Primitives

/// A comment's identifier: a lower-case UUID.
public struct CommentID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}

/// A line in an expense's thread: who wrote what, when. Only people in the expense read or
/// write its thread; its author may delete it.
public struct ExpenseComment: Equatable, Sendable {
    public let id: CommentID
    public let expense: ExpenseID
    public let author: UserID
    public let at: Date
    public let text: String

    public init(id: CommentID, expense: ExpenseID, author: UserID, at: Date, text: String) {
        self.id = id
        self.expense = expense
        self.author = author
        self.at = at
        self.text = text
    }

    /// The longest a comment may be, in characters.
    public static let maximumLength = 1_000
    /// The most comments one expense keeps: a thread, not a chat.
    public static let maximumPerExpense = 500

    /// What a comment says once its ends are trimmed, or why it may not say it: 1 to 1,000
    /// characters, without control characters (line breaks included: a comment is one
    /// paragraph) or invisible ones that reorder or hide text (bidi controls, zero widths).
    public static func text(_ typed: String) -> Result<String, CommentProblem> {
        let text = typed.trimmingWhitespace()
        guard !text.isEmpty else { return .failure(.empty) }
        guard text.count <= maximumLength else { return .failure(.tooLong) }
        guard !text.containsControlCharacters else { return .failure(.controlCharacters) }
        guard !text.containsInvisibleCharacters else { return .failure(.invisibleCharacters) }
        return .success(text)
    }
}

/// Why a comment's text is refused.
public enum CommentProblem: String, ValidationProblem, CaseIterable {
    case empty
    case tooLong = "too-long"
    case controlCharacters = "control-characters"
    case invisibleCharacters = "invisible-characters"
    /// The thread holds ``ExpenseComment/maximumPerExpense`` comments already.
    case threadFull = "thread-full"

    public var message: String {
        switch self {
        case .empty: "Write a comment of 1 to \(ExpenseComment.maximumLength) characters."
        case .tooLong: "A comment is at most \(ExpenseComment.maximumLength) characters."
        case .controlCharacters: "A comment cannot contain control characters or line breaks."
        case .invisibleCharacters: "A comment cannot contain invisible characters that reorder or hide text."
        case .threadFull: "This expense has \(ExpenseComment.maximumPerExpense) comments, the most it keeps: delete one of yours first."
        }
    }
}
