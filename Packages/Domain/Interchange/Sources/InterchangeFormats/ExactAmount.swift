import Primitives

/// An amount as a file writes it, exactly: billionths of a major unit. Files may state nets
/// below a cent (Splitwise's `3.333333`); they are rounded only where the rules say.
struct ExactAmount: Equatable, Comparable, Sendable {
    /// Billionths of a major unit.
    static let scale: Int64 = 1_000_000_000
    var nanos: Int64

    static let zero = ExactAmount(nanos: 0)

    /// Reads `-12.5`, `3.333333`, `+4`, `1,234.50` (a comma between thousands); nil for anything
    /// else, and for an amount beyond nine billion (no currency has a use for one).
    init?(_ text: String) {
        var bytes = Substring(text.trimmingWhitespace()).utf8[...]
        var negative = false
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") {
            negative = bytes.first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        } else if bytes.starts(with: "\u{2212}".utf8) {
            negative = true
            bytes = bytes.dropFirst(3)
        }
        // The whole part (commas between thousands skipped), at most ten digits.
        var units: Int64 = 0
        var digits = 0
        while let byte = bytes.first, byte != UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ",") { continue }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            digits += 1
            guard digits <= 10 else { return nil }
            units = units * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        let hasPoint = bytes.first == UInt8(ascii: ".")
        bytes = bytes.dropFirst()
        guard units < Int64.max / Self.scale else { return nil }
        var nanos = units * Self.scale
        // The first nine decimals count; a tenth rounds them half away from zero.
        var place = Self.scale / 10
        var decimals = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let value = Int64(byte - UInt8(ascii: "0"))
            if decimals < 9 {
                nanos += value * place
                place /= 10
            } else if decimals == 9, value >= 5 {
                nanos += 1
            }
            decimals += 1
        }
        guard digits > 0 || (hasPoint && decimals > 0) else { return nil }
        self.nanos = negative ? -nanos : nanos
    }

    init(nanos: Int64) {
        self.nanos = nanos
    }

    /// An amount of minor units of `currency`.
    init(minorUnits: Int64, of currency: Currency) {
        nanos = minorUnits * Self.unit(currency)
    }

    static func < (left: ExactAmount, right: ExactAmount) -> Bool { left.nanos < right.nanos }

    /// Billionths in one minor unit of `currency`.
    static func unit(_ currency: Currency) -> Int64 {
        var unit = scale
        for _ in 0..<min(currency.decimals, 9) { unit /= 10 }
        return unit
    }

    /// Rounded to minor units of `currency`, half away from zero.
    func rounded(to currency: Currency) -> Int64 {
        let unit = Self.unit(currency)
        let (quotient, remainder) = nanos.quotientAndRemainder(dividingBy: unit)
        if remainder.magnitude * 2 >= unit.magnitude { return quotient + (nanos < 0 ? -1 : 1) }
        return quotient
    }

    /// Whether it is a whole number of minor units of `currency`.
    func isWhole(in currency: Currency) -> Bool { nanos % Self.unit(currency) == 0 }

    /// As a file writes it: `-3.33` for a whole number of cents, the decimals that count otherwise.
    func text(in currency: Currency) -> String {
        let sign = nanos < 0 ? "-" : ""
        let magnitude = nanos.magnitude
        let whole = magnitude / UInt64(Self.scale)
        var fraction = String(magnitude % UInt64(Self.scale))
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.count > currency.decimals, fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }
}

/// Sharing a total in minor units among exact amounts: each gets its amount rounded down, and
/// the units left over go to the largest remainders, ties to the earlier one.
enum LargestRemainder {
    /// `total` shared by `amounts` (in `currency`), or nil when the amounts, rounded down, are
    /// more than `total` or short of it by more units than there are amounts.
    static func share(_ total: Int64, by amounts: [ExactAmount], in currency: Currency) -> [Int64]? {
        let unit = ExactAmount.unit(currency)
        var floors: [Int64] = []
        var remainders: [Int64] = []
        for amount in amounts {
            // Rounded down, toward minus infinity.
            var floor = amount.nanos / unit
            var remainder = amount.nanos % unit
            if remainder < 0 {
                floor -= 1
                remainder += unit
            }
            floors.append(floor)
            remainders.append(remainder)
        }
        var sum: Int64 = 0
        for floor in floors {
            let (added, over) = sum.addingReportingOverflow(floor)
            guard !over else { return nil }
            sum = added
        }
        let (left, over) = total.subtractingReportingOverflow(sum)
        guard !over, left >= 0, left <= Int64(amounts.count) else { return nil }
        let order = remainders.indices.sorted { remainders[$0] != remainders[$1] ? remainders[$0] > remainders[$1] : $0 < $1 }
        for index in order.prefix(Int(left)) { floors[index] += 1 }
        return floors
    }
}
