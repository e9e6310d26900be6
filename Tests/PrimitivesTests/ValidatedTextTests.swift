import Foundation
import Primitives
import Testing

@Suite("Validated text in JSON")
struct ValidatedTextTests {
    struct Card: Codable, Equatable {
        var email: EmailAddress
        var name: DisplayName
    }

    @Test("encodes as plain strings and decodes back")
    func roundTrip() throws {
        let card = Card(email: try EmailAddress("ada@example.com"), name: try DisplayName("Ada"))
        let data = try JSONEncoder().encode(card)
        #expect(String(decoding: data, as: UTF8.self).contains(#""email":"ada@example.com""#))
        #expect(try JSONDecoder().decode(Card.self, from: data) == card)
        #expect(card.email.description == "ada@example.com")
    }

    @Test("decoding validates again: a stored value that breaks a rule is refused with its reason")
    func decodingValidates() {
        let data = Data(#"{"email":"not an email","name":"Ada"}"#.utf8)
        #expect {
            try JSONDecoder().decode(Card.self, from: data)
        } throws: { error in
            guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
            return context.debugDescription == "Enter an email address like name@example.com."
        }
    }
}

@Suite("Text")
struct TextTests {
    @Test("an ASCII digit is 0 to 9 alone: not another script's digit, not a digit with a combining mark")
    func asciiDigits() {
        #expect("0123456789".allSatisfy { $0.isASCIIDigit })
        #expect(!Character("3\u{301}").isASCIIDigit)
        #expect(!Character("٣").isASCIIDigit)
        #expect(!Character("a").isASCIIDigit)
    }

    @Test("lists in words: one, two, or more with commas and a last 'and'; nothing for none")
    func listedInWords() {
        #expect([String]().listedInWords == "")
        #expect(["Ann"].listedInWords == "Ann")
        #expect(["Ann", "Bob"].listedInWords == "Ann and Bob")
        #expect(["Ann", "Bob", "Cy"].listedInWords == "Ann, Bob and Cy")
    }
}
