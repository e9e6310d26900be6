import Foundation
import Primitives
import Testing

@Suite("Friend codes")
struct FriendCodeTests {
    private let codes = (0..<300 as Range<UInt64>).map { FriendCode.random(using: SeededRandomSource(seed: $0)) }

    @Test("a new code is eight characters of the alphabet and a check character, shown in groups of four")
    func shape() throws {
        for code in codes {
            #expect(code.rawValue.count == 9)
            #expect(code.rawValue.allSatisfy(FriendCode.alphabet.contains))
            #expect(code.description.split(separator: "-").map(\.count) == [4, 4, 1])
            #expect(try FriendCode(code.description) == code)
        }
        #expect(Set(codes).count == codes.count)
    }

    @Test("the alphabet leaves out what can be misread: 0 and O, 1, I and L")
    func alphabet() {
        #expect(FriendCode.alphabet.count == 31)
        for confusable in "0O1IL" { #expect(!FriendCode.alphabet.contains(confusable)) }
        // Upper case letters, digits and nothing else: a QR code's alphanumeric mode holds them.
        #expect(FriendCode.alphabet.allSatisfy { $0.isASCII && ($0.isNumber || $0.isUppercase) })
    }

    @Test("typed in lower case, with spaces or dashes anywhere, a code still reads")
    func typing() throws {
        for code in codes.prefix(50) {
            let raw = code.rawValue
            #expect(try FriendCode(raw.lowercased()) == code)
            #expect(try FriendCode(" " + raw.prefix(3) + " - " + raw.dropFirst(3).lowercased() + "  ") == code)
            #expect(try FriendCode(raw.map(String.init).joined(separator: "-")) == code)
        }
    }

    @Test("any one character typed wrong is refused by the check character")
    func substitution() {
        for code in codes.prefix(40) {
            let characters = Array(code.rawValue)
            for index in characters.indices {
                for other in FriendCode.alphabet where other != characters[index] {
                    var typed = characters
                    typed[index] = other
                    #expect(throws: FriendCodeProblem.check) { try FriendCode(String(typed)) }
                }
            }
        }
    }

    @Test("any two neighbouring characters swapped are refused by the check character")
    func transposition() {
        for code in codes {
            let characters = Array(code.rawValue)
            for index in characters.indices.dropLast() where characters[index] != characters[index + 1] {
                var typed = characters
                typed.swapAt(index, index + 1)
                #expect(throws: FriendCodeProblem.check) { try FriendCode(String(typed)) }
            }
        }
    }

    @Test("too short, too long, or with a character codes do not use: refused, saying which", arguments: [
        ("K7QX-M3RD", FriendCodeProblem.length(8)),
        ("K7QX-M3RD-99", .length(10)),
        ("", .length(0)),
        ("K7QX-M0RD-9", .character("0")),
        ("K7QX-MORD-9", .character("O")),
        ("K7QX-M3RL-9", .character("L")),
        ("K7QX-M3R\u{1B}-9", .character("\u{1B}")),
    ])
    func refused(text: String, problem: FriendCodeProblem) {
        #expect(throws: problem) { try FriendCode(text) }
        #expect(!problem.message.isEmpty)
        #expect(!problem.message.contains("\u{1B}"))
    }

    @Test("a code is stored and read back as its nine characters; damaged text is refused")
    func coding() throws {
        let code = codes[0]
        let data = try JSONEncoder().encode(code)
        #expect(String(decoding: data, as: UTF8.self) == "\"\(code.rawValue)\"")
        #expect(try JSONDecoder().decode(FriendCode.self, from: data) == code)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FriendCode.self, from: Data("\"AAAA\"".utf8)) }
    }

    @Test("a source that gives only bytes the draw skips still yields a code")
    func stubbornSource() {
        struct Stuck: RandomSource {
            func bytes(_ count: Int) -> [UInt8] { Array(repeating: 255, count: count) }
        }
        #expect(FriendCode.random(using: Stuck()).rawValue.count == 9)
    }
}
