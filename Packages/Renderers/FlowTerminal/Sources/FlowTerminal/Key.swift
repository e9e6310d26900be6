/// A key press (or a paste), decoded from the bytes a terminal sends.
public enum Key: Equatable, Sendable {
    /// A printable character.
    case character(Character)
    case enter
    case backspace
    case delete
    case tab
    case shiftTab
    case up
    case down
    case left
    case right
    case home
    case end
    case escape
    /// Ctrl and a letter (`control("c")` for Ctrl-C).
    case control(Character)
    /// Alt (Meta) and a key, which a terminal sends as Escape and the key at once (`alt("b")`).
    case alt(Character)
    /// Text pasted while bracketed paste is on, as one event.
    case paste(String)
    /// Bytes that are not UTF-8 (a stray byte, or a paste with one): dropped, never turned into
    /// characters; the renderer says so.
    case invalidUTF8
    /// The screen must be drawn again: the terminal changed size, or the process came back from
    /// a suspend (not a key, but it arrives the same way).
    case resize
    /// What the screen shows changed elsewhere (a sync in the background brought changes): it
    /// reads it again, as Ctrl-R does, unless that would lose what is being typed (not a key
    /// either).
    case changedElsewhere
}

/// Turns terminal input bytes into ``Key``s.
///
/// Bytes arrive in arbitrary chunks: an escape sequence or a UTF-8 character may be split
/// across reads, so the decoder keeps what it cannot decode yet. A lone Escape is ambiguous
/// until more input arrives or the reader decides none will (`flush()`).
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []
    private var pasting: [UInt8]?

    public init() {}

    /// The keys completed by these bytes.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        while let (key, used) = decodeOne() {
            pending.removeFirst(used)
            // A run of bad bytes is one key.
            if let key, !(key == .invalidUTF8 && keys.last == .invalidUTF8) { keys.append(key) }
        }
        return keys
    }

    /// Whether nothing is waiting to be decoded.
    public var isIdle: Bool { pending.isEmpty && pasting == nil }

    /// Input went quiet: a pending lone Escape is an Escape key.
    public mutating func flush() -> [Key] {
        guard pasting == nil, pending == [0x1B] else { return [] }
        pending = []
        return [.escape]
    }

    private static let pasteStart: [UInt8] = Array("\u{1B}[200~".utf8)
    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// One key from the front of `pending` and how many bytes it used; nil when more bytes are
    /// needed. A nil key with a count skips bytes that mean nothing.
    private mutating func decodeOne() -> (Key?, Int)? {
        guard let first = pending.first else { return nil }

        if var paste = pasting {
            if let end = pending.firstRange(of: Self.pasteEnd) {
                paste += pending[..<end.lowerBound]
                pasting = nil
                // A paste with bytes that are not UTF-8 is refused whole rather than changed.
                guard let raw = String(validating: paste, as: UTF8.self) else { return (.invalidUTF8, end.upperBound) }
                let text = String(raw.map { $0 == "\r\n" || $0 == "\r" ? "\n" : $0 })
                return (.paste(text), end.upperBound)
            }
            // Keep all but a possible partial end marker.
            let keep = min(pending.count, Self.pasteEnd.count - 1)
            paste += pending[..<(pending.count - keep)]
            pasting = paste
            return pending.count - keep > 0 ? (nil, pending.count - keep) : nil
        }

        switch first {
        case 0x1B:
            return decodeEscape()
        case 0x0D, 0x0A:
            return (.enter, 1)
        case 0x09:
            return (.tab, 1)
        case 0x7F, 0x08:
            return (.backspace, 1)
        case 0x01...0x1A:
            return (.control(Character(Unicode.Scalar(first + 0x60))), 1)
        case 0x00, 0x1C...0x1F:
            return (nil, 1)
        default:
            return decodeCharacter()
        }
    }

    private mutating func decodeEscape() -> (Key?, Int)? {
        guard pending.count >= 2 else { return nil }
        let second = pending[1]
        if second == UInt8(ascii: "[") {
            // CSI: parameters and intermediates, then a final byte in 0x40...0x7E.
            var index = 2
            while index < pending.count, !(0x40...0x7E).contains(pending[index]) { index += 1 }
            guard index < pending.count else { return pending.count > 32 ? (nil, pending.count) : nil }
            let parameters = String(decoding: pending[2..<index], as: UTF8.self)
            let final = pending[index]
            let used = index + 1
            if parameters == "200", final == UInt8(ascii: "~") {
                pasting = []
                return (nil, used)
            }
            switch (parameters, final) {
            case (_, UInt8(ascii: "A")): return (.up, used)
            case (_, UInt8(ascii: "B")): return (.down, used)
            case (_, UInt8(ascii: "C")): return (.right, used)
            case (_, UInt8(ascii: "D")): return (.left, used)
            case (_, UInt8(ascii: "H")), ("1", UInt8(ascii: "~")), ("7", UInt8(ascii: "~")): return (.home, used)
            case (_, UInt8(ascii: "F")), ("4", UInt8(ascii: "~")), ("8", UInt8(ascii: "~")): return (.end, used)
            case ("3", UInt8(ascii: "~")): return (.delete, used)
            case (_, UInt8(ascii: "Z")): return (.shiftTab, used)
            default: return (nil, used)
            }
        }
        if second == UInt8(ascii: "O") {
            guard pending.count >= 3 else { return nil }
            switch pending[2] {
            case UInt8(ascii: "A"): return (.up, 3)
            case UInt8(ascii: "B"): return (.down, 3)
            case UInt8(ascii: "C"): return (.right, 3)
            case UInt8(ascii: "D"): return (.left, 3)
            case UInt8(ascii: "H"): return (.home, 3)
            case UInt8(ascii: "F"): return (.end, 3)
            default: return (nil, 3)
            }
        }
        if second == 0x1B { return (.escape, 1) }
        // Alt and a key: the terminal sends Escape and the key at once.
        if second < 0x20 || second == 0x7F {
            return (.alt(Character(Unicode.Scalar(second))), 2)
        }
        switch decodeCharacter(at: 1) {
        case .character(let character, let length)?: return (.alt(character), 1 + length)
        case .invalid?: return (.escape, 1)
        case nil: return nil
        }
    }

    private func decodeCharacter() -> (Key?, Int)? {
        switch decodeCharacter(at: 0) {
        case .character(let character, let length)?: return (.character(character), length)
        case .invalid?: return (.invalidUTF8, 1)
        case nil: return nil
        }
    }

    private enum Decoded {
        case character(Character, length: Int)
        /// The byte at the start cannot begin a character here.
        case invalid
    }

    /// The UTF-8 character at `start` of `pending`; nil when more bytes are needed.
    private func decodeCharacter(at start: Int) -> Decoded? {
        let first = pending[start]
        let length = switch first {
        case 0x00...0x7F: 1
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 0
        }
        guard length > 0 else { return .invalid }
        let available = pending.count - start
        // A byte that cannot continue the character makes the lead byte a stray one.
        for index in 1..<max(1, min(length, available)) where !(0x80...0xBF).contains(pending[start + index]) {
            return .invalid
        }
        guard available >= length else { return nil }
        guard let text = String(validating: pending[start..<(start + length)], as: UTF8.self), let character = text.first else { return .invalid }
        return .character(character, length: length)
    }
}
