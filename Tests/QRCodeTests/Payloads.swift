import QRCode

/// A deterministic random source (SplitMix64), so every run tests the same payloads.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// A text to encode, and the mode it should be encoded in.
struct Payload: Sendable, CustomStringConvertible {
    enum Kind: String, Sendable { case friendCode = "friend code", alphanumeric, text }

    let kind: Kind
    let text: String

    var mode: QRCode.Mode { kind == .text ? .byte : .alphanumeric }

    var description: String {
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return "\(kind.rawValue) of \(text.utf8.count) bytes \"\(shown)\""
    }
}

/// The payloads the tests use, all from seeded generators.
enum Payloads {
    /// The friend-code alphabet: upper case and digits without 0, O, 1, I and L.
    static let friendCodeAlphabet = Array("23456789ABCDEFGHJKMNPQRSTUVWXYZ")
    static let alphanumericSet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")

    /// Characters for byte-mode text: ASCII, accented Latin, Greek, Cyrillic, CJK, symbols,
    /// emoji (four UTF-8 bytes), combining marks. No control characters: zbarimg's output is
    /// read line by line.
    static let textScalars: [ClosedRange<UInt32>] = [
        0x20...0x7E, 0x20...0x7E, 0x20...0x7E, 0xC0...0xFF, 0x391...0x3C9, 0x410...0x44F,
        0x4E00...0x4FFF, 0x2190...0x21FF, 0x1F600...0x1F64F, 0x300...0x36F,
    ]

    /// A friend code like `K7QX-M3RD-9`: mostly that shape, sometimes a group longer or shorter.
    static func friendCode(_ random: inout SeededGenerator) -> Payload {
        let shapes = [[4, 4, 1], [4, 4, 1], [4, 4, 1], [4, 4, 2], [3, 3, 3], [4, 4, 4], [4, 4]]
        let shape = shapes[Int.random(in: 0..<shapes.count, using: &random)]
        let groups = shape.map { length in
            String((0..<length).map { _ in friendCodeAlphabet[Int.random(in: 0..<friendCodeAlphabet.count, using: &random)] })
        }
        return Payload(kind: .friendCode, text: groups.joined(separator: "-"))
    }

    /// An alphanumeric text of `length` characters. Runs of digits stay under seven: qrencode
    /// switches a longer run to numeric mode, which this encoder does not have, and its matrices
    /// could then not be compared.
    static func alphanumeric(length: Int, _ random: inout SeededGenerator) -> Payload {
        var text = ""
        var digitRun = 0
        for _ in 0..<length {
            var character = alphanumericSet[Int.random(in: 0..<alphanumericSet.count, using: &random)]
            if character.isNumber, digitRun == 6 { character = "Q" }
            digitRun = character.isNumber ? digitRun + 1 : 0
            text.append(character)
        }
        return Payload(kind: .alphanumeric, text: text)
    }

    /// Text of exactly `bytes` UTF-8 bytes for byte mode, mixing scripts; at least one
    /// character is outside the alphanumeric set, so the automatic mode is byte.
    static func text(bytes: Int, _ random: inout SeededGenerator) -> Payload {
        var text = ""
        var count = 0
        while count < bytes {
            let range = textScalars[Int.random(in: 0..<textScalars.count, using: &random)]
            guard let scalar = Unicode.Scalar(UInt32.random(in: range, using: &random)) else { continue }
            let length = String(scalar).utf8.count
            if count + length > bytes { continue }
            text.unicodeScalars.append(scalar)
            count += length
        }
        if QRCode.Mode.smallest(for: text) == .alphanumeric, !text.isEmpty {
            text = "a" + text.dropFirst()
        }
        return Payload(kind: .text, text: text)
    }

    /// The 200 payloads read back by zbarimg: 60 friend codes, 70 alphanumeric texts and 70
    /// byte-mode texts, of lengths from 1 to several hundred.
    static let decoding: [Payload] = {
        var random = SeededGenerator(seed: 0x51C0DE)
        var payloads: [Payload] = []
        for _ in 0..<60 { payloads.append(friendCode(&random)) }
        for index in 0..<70 { payloads.append(alphanumeric(length: spreadLength(index, of: 70, upTo: 700), &random)) }
        for index in 0..<70 { payloads.append(text(bytes: spreadLength(index, of: 70, upTo: 450), &random)) }
        return payloads
    }()

    /// Lengths from 1 to about `maximum`, growing faster than linearly so that short texts
    /// (small versions) are tested most.
    static func spreadLength(_ index: Int, of count: Int, upTo maximum: Int) -> Int {
        let step = index + 1
        return max(1, step * step * maximum / (count * count))
    }
}
