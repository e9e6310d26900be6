import Foundation
import FlowsWire
import OpenAPIRuntime
import Testing

/// The contract's instants, written and read without a date formatter, exactly as the
/// formatter writes and reads them: a replica's instants do not move by a bit for it.
struct InstantTranscoderTests {
    private let formatter = ISO8601DateTranscoder.iso8601WithFractionalSeconds
    private let fast = InstantTranscoder()

    @Test("an instant is written as the formatter writes it, and read back to the same bits")
    func sameAsTheFormatter() throws {
        var generator = SystemRandomNumberGenerator()
        // Instants of every era (before 1583 too, where the formatter's calendar is Julian), with
        // sub-millisecond fractions (as a clock gives them), and the edges of a day, a month, a
        // leap year, the epoch and the range read here.
        var instants: [Date] = [
            0, -0.0005, -1, 0.0009, 0.0005, 951_782_400, 951_868_799.9999, 4_107_542_399.999, -62_135_596_800, 253_402_300_799.999,
            -12_212_553_600, -12_212_553_600.001, -12_212_553_599.9996,
        ]
            .map { Date(timeIntervalSince1970: $0) }
        for _ in 0..<20_000 { instants.append(Date(timeIntervalSince1970: Double.random(in: -62_135_596_800...253_402_300_799, using: &generator))) }
        for _ in 0..<20_000 { instants.append(Date(timeIntervalSince1970: Double.random(in: 1_600_000_000...1_900_000_000, using: &generator))) }
        for instant in instants {
            let (written, expected) = (try fast.encode(instant), try formatter.encode(instant))
            #expect(written == expected, "\(instant.timeIntervalSince1970)")
            let (read, readBefore) = (try fast.decode(expected), try formatter.decode(expected))
            #expect(read.timeIntervalSinceReferenceDate.bitPattern == readBefore.timeIntervalSinceReferenceDate.bitPattern, "\(expected): \(read.timeIntervalSince1970), not \(readBefore.timeIntervalSince1970)")
        }
    }

    @Test("any other form is read as the formatter reads it, or refused as it refuses it")
    func otherForms() {
        let texts = [
            "2026-11-22T11:00:00.250+01:00", "2026-11-22T10:00:00Z", "", "2026-11-22", "2026-02-30T10:00:00.000Z", "2026-13-01T10:00:00.000Z",
            "2026-11-22T24:00:00.000Z", "2026-11-22T10:00:00.00xZ", "\u{FF12}026-11-22T10:00:00.000Z",
        ]
        for text in texts {
            #expect((try? fast.decode(text)) == (try? formatter.decode(text)), "\(text)")
        }
        #expect(throws: (any Error).self) { try fast.decode("2026-11-22") }
    }
}
