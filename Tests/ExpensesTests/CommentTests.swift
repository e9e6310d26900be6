import Expenses
import ExpensesLive
import Foundation
import Primitives
import Testing

private let ann = UserID(rawValue: "a-ann")
private let bob = UserID(rawValue: "b-bob")
private let cy = UserID(rawValue: "c-cy")

@Suite("Comments on an expense")
struct CommentTests {
    let ledger = Ledger()

    /// Ann's dinner with Bob; Cy is not in it.
    private func dinner(_ service: LiveExpensesService) async throws -> Expense {
        try await service.add(try draft(eur(3000), paidBy: [(ann, 3000)], among: [ann, bob]), by: ann)
    }

    @Test("people in the expense write and read its thread, oldest first; everyone in it sees a line in their activity, without the text")
    func thread() async throws {
        // The clock moves, as a real one does: the thread is in the order written.
        let service = LiveExpensesService(store: ledger.store, people: TestPeople(), random: SeededRandomSource(seed: 9), now: { Date() })
        let dinner = try await dinner(service)
        let first = try await service.comment("  Was it 30 or 36?  ", on: dinner.id, by: bob)
        #expect(first.text == "Was it 30 or 36?")
        #expect(first.author == bob && first.expense == dinner.id)
        let second = try await service.comment("30: the wine was mine.", on: dinner.id, by: ann)
        #expect(try await service.comments(on: dinner.id, for: ann).map(\.id) == [first.id, second.id])
        #expect(try await service.comments(on: dinner.id, for: bob) == service.comments(on: dinner.id, for: ann))
        let line = try #require(try await service.activity(of: ann, limit: 1).first)
        #expect(line.kind == .commented && line.actor == ann && line.subject == dinner.id)
        #expect(line.summary == "Dinner, 30.00 EUR")
        #expect(ActivityWords.sentence(line, who: "Ann") == "Ann commented on Dinner, 30.00 EUR.")
        #expect(try await service.activity(of: bob, limit: 2).map(\.kind) == [.commented, .commented])
        // A comment is no change to the expense: its history is untouched.
        #expect(try await service.history(of: dinner.id, for: bob).map(\.kind) == [.added])
    }

    @Test("someone not in the expense neither reads, writes nor deletes its comments; only the author deletes one")
    func who() async throws {
        let service = ledger.service()
        let dinner = try await dinner(service)
        let comment = try await service.comment("Was it 30 or 36?", on: dinner.id, by: bob)
        await #expect(throws: ExpensesError.notFound(dinner.id)) { _ = try await service.comments(on: dinner.id, for: cy) }
        await #expect(throws: ExpensesError.notFound(dinner.id)) { _ = try await service.comment("Me too", on: dinner.id, by: cy) }
        await #expect(throws: ExpensesError.notFound(dinner.id)) { try await service.deleteComment(comment.id, on: dinner.id, by: cy) }
        await #expect(throws: ExpensesError.notYourComment) { try await service.deleteComment(comment.id, on: dinner.id, by: ann) }
        // A comment of another expense is not found on this one.
        let lunch = try await service.add(try draft(eur(1000), paidBy: [(bob, 1000)], among: [bob, cy], description: "Lunch"), by: bob)
        let other = try await service.comment("Thanks!", on: lunch.id, by: cy)
        await #expect(throws: ExpensesError.commentNotFound(other.id)) { try await service.deleteComment(other.id, on: dinner.id, by: bob) }
        try await service.deleteComment(comment.id, on: dinner.id, by: bob)
        #expect(try await service.comments(on: dinner.id, for: ann).isEmpty)
        await #expect(throws: ExpensesError.commentNotFound(comment.id)) { try await service.deleteComment(comment.id, on: dinner.id, by: bob) }
        #expect(try ledger.count("expense_comment") == 1)
    }

    @Test("a comment is 1 to 1,000 characters, without control or invisible characters; nothing is written otherwise", arguments: [
        ("", CommentProblem.empty), ("   ", .empty), (String(repeating: "é", count: 1_001), .tooLong),
        ("two\nlines", .controlCharacters), ("bell\u{7}", .controlCharacters), ("\u{1B}[31mred", .controlCharacters),
        ("abc\u{202E}fed", .invisibleCharacters), ("zero\u{200B}width", .invisibleCharacters), ("isolate\u{2066}x", .invisibleCharacters),
    ])
    func text(typed: String, problem: CommentProblem) async throws {
        let service = ledger.service()
        let dinner = try await dinner(service)
        await #expect(throws: ExpensesError.invalidComment(problem)) { _ = try await service.comment(typed, on: dinner.id, by: ann) }
        #expect(try ledger.count("expense_comment") == 0)
        #expect(try await service.activity(of: ann, limit: 5).map(\.kind) == [.added])
    }

    @Test("a thousand characters (not bytes) is a comment; a deleted expense's thread is gone with it and back when it is restored")
    func lengthAndDeletion() async throws {
        let service = ledger.service()
        let dinner = try await dinner(service)
        let long = try await service.comment(String(repeating: "ü", count: 1_000), on: dinner.id, by: ann)
        #expect(long.text.count == 1_000)
        try await service.delete(dinner, by: ann)
        await #expect(throws: ExpensesError.notFound(dinner.id)) { _ = try await service.comments(on: dinner.id, for: ann) }
        await #expect(throws: ExpensesError.notFound(dinner.id)) { _ = try await service.comment("Gone?", on: dinner.id, by: bob) }
        _ = try await service.restore(dinner.id, by: bob)
        #expect(try await service.comments(on: dinner.id, for: bob) == [long])
    }

    @Test("a thread keeps at most 500 comments")
    func full() async throws {
        let service = ledger.service()
        let dinner = try await dinner(service)
        for index in 0..<ExpenseComment.maximumPerExpense {
            _ = try await service.comment("Note \(index)", on: dinner.id, by: index.isMultiple(of: 2) ? ann : bob)
        }
        await #expect(throws: ExpensesError.invalidComment(.threadFull)) { _ = try await service.comment("One more", on: dinner.id, by: ann) }
        #expect(try ledger.count("expense_comment") == ExpenseComment.maximumPerExpense)
    }
}
