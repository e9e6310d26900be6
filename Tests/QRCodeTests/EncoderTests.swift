import QRCode
import Testing

/// The encoder's choices and limits, checked against the standard's tables and rules without
/// any outside tool.
@Suite("QRCode.encode")
struct EncoderTests {
    /// From the standard's capacity table (ISO/IEC 18004, Table 7): characters in alphanumeric
    /// mode and bytes in byte mode, at L, M, Q and H.
    static let capacities: [(version: Int, alphanumeric: [Int], byte: [Int])] = [
        (1, [25, 20, 16, 10], [17, 14, 11, 7]),
        (2, [47, 38, 29, 20], [32, 26, 20, 14]),
        (3, [77, 61, 47, 35], [53, 42, 32, 24]),
        (6, [195, 154, 108, 84], [134, 106, 74, 58]),
        (10, [395, 311, 221, 174], [271, 213, 151, 119]),
        (40, [4296, 3391, 2420, 1852], [2953, 2331, 1663, 1273]),
    ]

    @Test("capacities are the standard's, and a text one longer needs the next version")
    func capacities() throws {
        for (version, alphanumeric, byte) in Self.capacities {
            for correction in QRCode.ErrorCorrection.allCases {
                for (mode, expected) in [(QRCode.Mode.alphanumeric, alphanumeric), (.byte, byte)] {
                    let capacity = expected[correction.rawValue]
                    #expect(QRCode.capacity(mode, version: version, correction: correction) == capacity,
                            "version \(version) \(correction) \(mode)")
                    let character = mode == .byte ? "b" : "B"
                    let full = try QRCode.encode(
                        String(repeating: character, count: capacity), correction: correction, minimumVersion: version, mask: 0
                    )
                    #expect(full.version == version && full.mode == mode)
                    if version < 40 {
                        let over = try QRCode.encode(
                            String(repeating: character, count: capacity + 1), correction: correction,
                            minimumVersion: version, mask: 0
                        )
                        #expect(over.version == version + 1)
                    }
                }
            }
        }
        #expect(QRCode.capacity(.byte, version: 0, correction: .low) == nil)
        #expect(QRCode.capacity(.byte, version: 41, correction: .low) == nil)
    }

    @Test("a text too long for version 40 is refused with an error, at every level and in both modes")
    func tooLong() {
        for correction in QRCode.ErrorCorrection.allCases {
            let alphanumeric = String(repeating: "Q", count: Self.capacities[5].alphanumeric[correction.rawValue] + 1)
            let alphanumericError = QRCode.EncodingError.tooLong(
                bytes: alphanumeric.utf8.count, mode: .alphanumeric, correction: correction, maximumVersion: 40
            )
            #expect(throws: alphanumericError) {
                try QRCode.encode(alphanumeric, correction: correction)
            }
            let bytes = String(repeating: "é", count: Self.capacities[5].byte[correction.rawValue] / 2 + 1)
            let byteError = QRCode.EncodingError.tooLong(
                bytes: bytes.utf8.count, mode: .byte, correction: correction, maximumVersion: 40
            )
            #expect(throws: byteError) {
                try QRCode.encode(bytes, correction: correction)
            }
        }
        // Far beyond any symbol: still an error, not a crash.
        #expect(throws: QRCode.EncodingError.self) { try QRCode.encode(String(repeating: "x", count: 200_000)) }
        // A limit on the version is a limit too.
        #expect(throws: QRCode.EncodingError.tooLong(bytes: 11, mode: .alphanumeric, correction: .high, maximumVersion: 1)) {
            try QRCode.encode("K7QX-M3RD-9", correction: .high, maximumVersion: 1)
        }
    }

    @Test("arguments out of range are errors with a message")
    func invalidArguments() {
        for mask in [-1, 8, Int.max, Int.min] {
            #expect(throws: QRCode.EncodingError.invalidMask(mask)) { try QRCode.encode("A", mask: mask) }
        }
        for (minimum, maximum) in [(0, 40), (1, 41), (5, 4), (Int.min, Int.max)] {
            #expect(throws: QRCode.EncodingError.invalidVersionRange(minimum: minimum, maximum: maximum)) {
                try QRCode.encode("A", minimumVersion: minimum, maximumVersion: maximum)
            }
        }
        #expect(throws: QRCode.EncodingError.notAlphanumeric("k")) {
            try QRCode.encode("K7QX-k3RD-9", mode: .alphanumeric)
        }
        #expect(QRCode.EncodingError.invalidMask(9).description == "mask 9 is not one of the eight masks 0...7")
        #expect(QRCode.EncodingError.tooLong(bytes: 3000, mode: .byte, correction: .low, maximumVersion: 40).description
            == "a text of 3000 bytes is too long for a QR code of version 40 in byte mode at error correction L")
    }

    @Test("the mode is alphanumeric when the whole text fits it, byte otherwise, unless forced")
    func modes() throws {
        #expect(QRCode.Mode.smallest(for: "K7QX-M3RD-9") == .alphanumeric)
        #expect(QRCode.Mode.smallest(for: "HTTPS://EXAMPLE.COM/A B$%*+") == .alphanumeric)
        #expect(QRCode.Mode.smallest(for: "") == .alphanumeric)
        #expect(QRCode.Mode.smallest(for: "K7QX-m3RD-9") == .byte)
        #expect(QRCode.Mode.smallest(for: "ÉTÉ") == .byte)
        #expect(QRCode.Mode.smallest(for: "A_B") == .byte)
        #expect(try QRCode.encode("K7QX-M3RD-9").mode == .alphanumeric)
        #expect(try QRCode.encode("K7QX-M3RD-9", mode: .byte).mode == .byte)
        #expect(try QRCode.encode("k7qx").mode == .byte)
        let empty = try QRCode.encode("", correction: .high)
        #expect(empty.version == 1 && empty.mode == .alphanumeric)
    }

    @Test("a friend code: version 1 at L to Q, 2 at H; the matrix says what it was made with")
    func friendCode() throws {
        for correction in QRCode.ErrorCorrection.allCases {
            let matrix = try QRCode.encode("K7QX-M3RD-9", correction: correction)
            #expect(matrix.version == (correction == .high ? 2 : 1))
            #expect(matrix.size == 17 + 4 * matrix.version)
            #expect(matrix.correction == correction)
            #expect(QRCode.masks.contains(matrix.mask))
            #expect(try QRCode.encode("K7QX-M3RD-9", correction: correction) == matrix)
            let format = try #require(FormatBits(rows: matrix.rows))
            #expect(format.correction == correction && format.mask == matrix.mask)
        }
        let larger = try QRCode.encode("K7QX-M3RD-9", minimumVersion: 3)
        #expect(larger.version == 3 && larger.size == 29)
    }

    @Test("a forced mask is used and written in the format information", arguments: QRCode.masks)
    func forcedMask(mask: Int) throws {
        let matrix = try QRCode.encode("K7QX-M3RD-9", correction: .quartile, mask: mask)
        #expect(matrix.mask == mask)
        let format = try #require(FormatBits(rows: matrix.rows))
        #expect(format.mask == mask && format.correction == .quartile)
        let others = try QRCode.masks.filter { $0 != mask }.map { try QRCode.encode("K7QX-M3RD-9", correction: .quartile, mask: $0) }
        #expect(others.allSatisfy { $0.rows != matrix.rows })
    }

    @Test("finder and timing patterns where the standard puts them; outside the symbol is light")
    func functionPatterns() throws {
        let matrix = try QRCode.encode("K7QX-M3RD-9", correction: .high)
        let size = matrix.size
        for (top, left) in [(0, 0), (0, size - 7), (size - 7, 0)] {
            for row in -1...7 {
                for column in -1...7 {
                    let ring = max(abs(row - 3), abs(column - 3))
                    #expect(matrix.isDark(row: top + row, column: left + column) == (ring != 2 && ring != 4),
                            "finder at (\(top), \(left)), module (\(row), \(column))")
                }
            }
        }
        for index in 8..<(size - 8) {
            #expect(matrix.isDark(row: 6, column: index) == (index % 2 == 0))
            #expect(matrix.isDark(row: index, column: 6) == (index % 2 == 0))
        }
        #expect(matrix.isDark(row: size - 8, column: 8), "the dark module")
        // Version 2's one alignment pattern, centred on (18, 18).
        #expect(matrix.isDark(row: 18, column: 18) && !matrix.isDark(row: 17, column: 18) && matrix.isDark(row: 16, column: 18))
        for (row, column) in [(-1, 0), (0, -1), (size, 0), (0, size), (Int.min, Int.max)] {
            #expect(!matrix.isDark(row: row, column: column))
        }
        #expect(matrix.rows.count == size && matrix.rows.allSatisfy { $0.count == size })
        for row in 0..<size {
            for column in 0..<size { #expect(matrix.rows[row][column] == matrix.isDark(row: row, column: column)) }
        }
    }

    @Test("version information from version 7: the version and its BCH code, in both blocks")
    func versionInformation() throws {
        for (version, bits) in [(7, 0x07C94), (21, 0x15683), (40, 0x28C69)] {
            let matrix = try QRCode.encode("A", correction: .low, minimumVersion: version)
            let size = matrix.size
            for bit in 0..<18 {
                let expected = (bits >> bit) & 1 == 1
                #expect(matrix.isDark(row: size - 11 + bit % 3, column: bit / 3) == expected, "version \(version) bit \(bit)")
                #expect(matrix.isDark(row: bit / 3, column: size - 11 + bit % 3) == expected, "version \(version) bit \(bit)")
            }
        }
    }

    @Test("the half-block drawing: two rows to a line, quiet zone included, an odd last row padded")
    func halfBlocks() throws {
        let matrix = try QRCode.encode("K7QX-M3RD-9", correction: .low)
        #expect(matrix.size == 21)

        let lines = matrix.halfBlockLines()
        #expect(lines.count == 15)
        #expect(lines.allSatisfy { $0.count == 29 })
        #expect(lines[0] == String(repeating: " ", count: 29) && lines[1] == lines[0], "the quiet zone")
        #expect(lines[14] == lines[0], "quiet zone below, and the padding row")
        // Rows 4 and 5 of the drawing are the finder's top two rows: all dark, then dark at
        // both ends.
        #expect(lines[2].hasPrefix("    █▀▀▀▀▀█ "))
        #expect(lines[2].hasSuffix(" █▀▀▀▀▀█    "))

        let bare = matrix.halfBlockLines(quietZone: 0)
        #expect(bare.count == 11 && bare.allSatisfy { $0.count == 21 })
        #expect(bare[0].hasPrefix("█▀▀▀▀▀█ "))
        #expect(bare[10].allSatisfy { $0 == "▀" || $0 == " " }, "the last line is row 20 over a light row")
        for (index, line) in bare.enumerated() {
            for (column, glyph) in line.enumerated() {
                let upper = matrix.isDark(row: 2 * index, column: column)
                let lower = matrix.isDark(row: 2 * index + 1, column: column)
                let expected: Character = upper ? (lower ? "█" : "▀") : (lower ? "▄" : " ")
                #expect(glyph == expected, "line \(index), column \(column)")
            }
        }
        #expect(matrix.halfBlockLines(quietZone: -3) == bare)
        let widest = matrix.halfBlockLines(quietZone: Int.max)
        #expect(widest.first?.count == 21 + 2 * QRMatrix.maximumQuietZone)
    }
}
