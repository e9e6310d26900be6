/// How many terminal columns text takes: wide East Asian characters and emoji take two,
/// combining marks and joiners none.
public enum DisplayWidth {
    public static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    public static func of(_ character: Character) -> Int {
        var widest = 0
        for scalar in character.unicodeScalars {
            widest = max(widest, of(scalar))
        }
        // An emoji presentation selector makes a narrow symbol wide.
        if character.unicodeScalars.contains("\u{FE0F}") { widest = max(widest, 2) }
        return widest
    }

    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value == 0 || value == 0x200B...0x200F || (0xFE00...0xFE0F).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value < 0x1100 { return 1 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x1F680...0x1F6FF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(value) } ? 2 : 1
    }
}

private func == (value: UInt32, range: ClosedRange<UInt32>) -> Bool { range.contains(value) }
