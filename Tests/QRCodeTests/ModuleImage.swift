import Foundation
import QRCode

/// A picture of modules, true dark, written as a binary PGM (P5) image for zbarimg.
struct ModuleImage {
    let rows: [[Bool]]

    /// The matrix with a light quiet zone of `quietZone` modules around it.
    init(_ matrix: QRMatrix, quietZone: Int = 4) {
        let range = -quietZone..<(matrix.size + quietZone)
        rows = range.map { row in range.map { column in matrix.isDark(row: row, column: column) } }
    }

    /// The modules drawn by `QRMatrix.halfBlockLines`, read back from the glyphs: each
    /// character is one column of two modules, each line two rows. Nil if a line has another
    /// character, or the lines are not all as wide.
    init?(halfBlockLines lines: [String]) {
        var rows: [[Bool]] = []
        for line in lines {
            var upper: [Bool] = []
            var lower: [Bool] = []
            for character in line {
                switch character {
                case "█": upper.append(true); lower.append(true)
                case "▀": upper.append(true); lower.append(false)
                case "▄": upper.append(false); lower.append(true)
                case " ": upper.append(false); lower.append(false)
                default: return nil
                }
            }
            rows.append(upper)
            rows.append(lower)
        }
        guard let width = rows.first?.count, rows.allSatisfy({ $0.count == width }) else { return nil }
        self.rows = rows
    }

    /// The image file, `scale` pixels to a module: black dark modules on white.
    func portableGraymap(scale: Int) -> Data {
        let width = (rows.first?.count ?? 0) * scale
        let header = Array("P5\n\(width) \(rows.count * scale)\n255\n".utf8)
        var pixels = [UInt8](repeating: 255, count: header.count + width * rows.count * scale)
        pixels.replaceSubrange(0..<header.count, with: header)
        var offset = header.count
        for row in rows {
            let lineStart = offset
            for (column, dark) in row.enumerated() where dark {
                for pixel in 0..<scale { pixels[lineStart + column * scale + pixel] = 0 }
            }
            offset += width
            for _ in 1..<scale {
                pixels.replaceSubrange(offset..<(offset + width), with: pixels[lineStart..<(lineStart + width)])
                offset += width
            }
        }
        return Data(pixels)
    }
}
