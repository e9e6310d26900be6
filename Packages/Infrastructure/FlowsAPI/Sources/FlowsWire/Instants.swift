import Foundation
import OpenAPIRuntime

/// Instants as the contract writes them, `2026-11-22T10:00:00.123Z`: UTC, to the millisecond.
///
/// Written and read here without a date formatter, whose every parse (on Linux) builds a
/// calendar and a number formatter: a first pull reads hundreds of thousands of instants. What
/// this writes, and what it reads from what it writes, are what
/// `ISO8601DateTranscoder.iso8601WithFractionalSeconds` writes and reads, to the bit; any other
/// form (another offset, no fraction) is read by that transcoder.
public struct InstantTranscoder: DateTranscoder {
    private static let general: any DateTranscoder = ISO8601DateTranscoder.iso8601WithFractionalSeconds
    /// 1970-01-01 as seconds since Foundation's reference date, 2001-01-01.
    private static let unixEpoch: Double = 978_307_200
    /// The instants written and read here, as milliseconds since 1970: from 1583, the first
    /// whole year of the Gregorian calendar (before it, the formatter counts Julian days), to
    /// the end of 9999.
    private static let written: ClosedRange<Int64> = -12_212_553_600_000...253_402_300_799_999

    public init() {}

    public func encode(_ date: Date) throws -> String {
        // As the formatter takes it: milliseconds since 1970, to the nearest (a half up).
        let milliseconds = ((date.timeIntervalSinceReferenceDate + Self.unixEpoch) * 1_000 + 0.5).rounded(.down)
        guard let whole = Int64(exactly: milliseconds), Self.written.contains(whole) else { return try Self.general.encode(date) }
        let (days, inDay) = Self.floorDivision(whole, 86_400_000)
        let (year, month, day) = Self.civil(fromDays: days)
        let hour = inDay / 3_600_000
        let minute = inDay / 60_000 % 60
        let second = inDay / 1_000 % 60
        let milli = inDay % 1_000
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        func digits(_ value: Int64, _ count: Int) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        digits(year, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(hour, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(minute, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(second, 2)
        bytes.append(UInt8(ascii: "."))
        digits(milli, 3)
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    public func decode(_ text: String) throws -> Date {
        var text = text
        let read = text.withUTF8 { Self.milliseconds(in: $0) }
        guard let read, Self.written.contains(read) else { return try Self.general.decode(text) }
        // As the formatter gives it: seconds since 2001 from milliseconds since 1970.
        return Date(timeIntervalSinceReferenceDate: Double(read) / 1_000 - Self.unixEpoch)
    }

    /// Milliseconds since 1970 of `yyyy-MM-ddTHH:mm:ss.SSSZ`; nil for anything else, or for a
    /// field out of its range.
    private static func milliseconds(in bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."), bytes[23] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ start: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for index in start..<(start + count) {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2), let minute = number(14, 2),
            let second = number(17, 2), let milli = number(20, 3), year >= 1, (1...12).contains(month), day >= 1,
            day <= daysIn(month: month, of: year), hour < 24, minute < 60, second < 60
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1_000 + milli
    }

    private static func daysIn(month: Int64, of year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a day of the proleptic Gregorian calendar.
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day of the proleptic Gregorian calendar `days` after 1970-01-01.
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}

extension DateTranscoder where Self == InstantTranscoder {
    /// Instants as the contract writes them (``InstantTranscoder``).
    public static var instants: Self { InstantTranscoder() }
}
