import Expenses
import Foundation
import Interchange
import InterchangeFormats
import Primitives
import Testing

/// Reading Spliit's JSON export, on a fixture written for these tests.
@Suite("SpliitJSON")
struct SpliitJSONTests {
    static let trip = SplitwiseCSVTests.fixtures.appendingPathComponent("spliit-trip.json").path

    @Test("every split mode gives parts adding up to the amount, leftover units to the largest remainder; a reimbursement is a payment")
    func trip() throws {
        let sheet = try SpliitJSON.read(contentsOf: Self.trip)
        #expect(sheet.people == ["Ada Lovelace", "Bob Stone", "李雷"])
        let (ada, bob, lei) = (0, 1, 2)
        #expect(sheet.entries.map(\.movement) == [
            .expense(paid: [bob: 1000], parts: [ada: 334, bob: 333, lei: 333]),
            .expense(paid: [ada: 9000], parts: [ada: 3000, lei: 6000]),
            .expense(paid: [lei: 30001], parts: [ada: 15001, bob: 9000, lei: 6000]),
            .expense(paid: [ada: 2000], parts: [bob: 1200, lei: 800]),
            .payment(from: bob, to: ada),
        ])
        #expect(sheet.entries.map(\.amount.minorUnits) == [1000, 9000, 30001, 2000, 1500])
        #expect(sheet.entries.allSatisfy { $0.group == "Lisbon trip" && $0.amount.currency == .eur })
        #expect(sheet.entries[1].description == "Dinner, with wine")
        #expect(sheet.entries[1].note == "Lei had the wine")
        #expect(sheet.entries[0].note == nil)
        #expect(Set(sheet.entries.map(\.key)).count == 5)
    }

    @Test("an expense that does not add up, or names someone not in the group, is refused with the rest")
    func refusals() throws {
        let text = """
            {"name": "G", "currencyCode": "EUR", "participants": [{"id": "a", "name": "Ada"}, {"id": "b", "name": "Bob"}],
             "expenses": [
              {"expenseDate": "2026-09-01", "title": "Short", "amount": 1000, "paidById": "a",
               "paidFor": [{"participantId": "a", "shares": 400}, {"participantId": "b", "shares": 500}], "splitMode": "BY_AMOUNT"},
              {"expenseDate": "2026-09-01", "title": "Stranger", "amount": 1000, "paidById": "z",
               "paidFor": [{"participantId": "a", "shares": 100}], "splitMode": "EVENLY"},
              {"expenseDate": "2026-09-01", "title": "Half", "amount": 1000, "paidById": "a",
               "paidFor": [{"participantId": "a", "shares": 5000}], "splitMode": "BY_PERCENTAGE"}
             ]}
            """
        #expect(throws: SheetProblems([
            SheetNote(row: 1, "Short: its shares do not split its amount (BY_AMOUNT)."),
            SheetNote(row: 2, "Stranger: its payer is not a participant."),
            SheetNote(row: 3, "Half: its shares do not split its amount (BY_PERCENTAGE)."),
        ])) { try SpliitJSON.read(text: text) }
        #expect(throws: SheetProblems([SheetNote(row: nil, "This is not a Spliit export: it lacks participants, expenses or one of their fields.")])) {
            try SpliitJSON.read(text: "{}")
        }
    }
}
