import Foundation
import QRCode

/// Symbols made by qrencode (libqrencode), for the same text, level and version.
enum Qrencode {
    /// What to ask qrencode for: `payload` at `correction`, in `version` or the smallest
    /// version that holds it when nil.
    struct Request: Sendable {
        let payload: Payload
        let correction: QRCode.ErrorCorrection
        let version: Int?
    }

    /// A symbol qrencode made: its modules (true dark) and the level and mask its format
    /// information names.
    struct Symbol: Sendable {
        let rows: [[Bool]]
        let correction: QRCode.ErrorCorrection?
        let mask: Int?

        var version: Int { (rows.count - 17) / 4 }
    }

    /// qrencode's symbol for each request, in order, made by one shell running every command.
    /// Byte-mode payloads are passed with `-8`, so the whole text is one 8-bit segment;
    /// alphanumeric payloads without it, so qrencode chooses the mode, which for upper-case text
    /// with short runs of digits is alphanumeric throughout.
    static func symbols(for requests: [Request], in folder: ScratchFolder) async throws -> [Symbol] {
        let tool = try ExternalTool.qrencode.get()
        var commands: [[String]] = []
        for (index, request) in requests.enumerated() {
            let input = folder.file("payload-\(index).txt")
            try Data(request.payload.text.utf8).write(to: input)
            var command = [tool.path, "-t", "ASCII", "-m", "0", "-l", request.correction.description]
            if let version = request.version { command += ["-v", String(version)] }
            if request.payload.mode == .byte { command.append("-8") }
            command += ["-r", input.path, "-o", folder.file("symbol-\(index).txt").path]
            commands.append(command)
        }
        try await ExternalTool.runScript(commands, in: folder.url)
        return try requests.indices.map { index in
            try symbol(from: String(decoding: Data(contentsOf: folder.file("symbol-\(index).txt")), as: UTF8.self))
        }
    }

    /// Reads `-t ASCII -m 0` output: one line per row, two characters per module, "##" dark.
    private static func symbol(from text: String) -> Symbol {
        let lines = text.split(separator: "\n").map(Array.init)
        let rows = lines.map { line in
            (0..<lines.count).map { column in 2 * column < line.count && line[2 * column] == "#" }
        }
        let format = FormatBits(rows: rows)
        return Symbol(rows: rows, correction: format?.correction, mask: format?.mask)
    }
}

/// The level and mask a symbol's format information names, read the way a decoder reads it:
/// both copies must agree and carry a valid BCH code word.
struct FormatBits {
    let correction: QRCode.ErrorCorrection
    let mask: Int

    init?(rows: [[Bool]]) {
        let size = rows.count
        guard size >= 21, rows.allSatisfy({ $0.count == size }) else { return nil }
        // Bit 14 (the most significant) first.
        let first: [(Int, Int)] = [(8, 0), (8, 1), (8, 2), (8, 3), (8, 4), (8, 5), (8, 7), (8, 8),
                                   (7, 8), (5, 8), (4, 8), (3, 8), (2, 8), (1, 8), (0, 8)]
        let second: [(Int, Int)] = (0..<7).map { (size - 1 - $0, 8) } + (0..<8).map { (8, size - 8 + $0) }
        func read(_ positions: [(Int, Int)]) -> Int {
            positions.reduce(0) { $0 << 1 | (rows[$1.0][$1.1] ? 1 : 0) }
        }
        let bits = read(first)
        guard bits == read(second) else { return nil }
        let unmasked = bits ^ 0x5412
        // The 15 bits are a code word of the (15, 5) BCH code: divisible by its generator.
        var remainder = unmasked
        for shift in stride(from: 14, through: 10, by: -1) where remainder & (1 << shift) != 0 {
            remainder ^= 0x537 << (shift - 10)
        }
        guard remainder == 0 else { return nil }
        let levels: [Int: QRCode.ErrorCorrection] = [0b01: .low, 0b00: .medium, 0b11: .quartile, 0b10: .high]
        guard let correction = levels[unmasked >> 13] else { return nil }
        self.correction = correction
        mask = (unmasked >> 10) & 0b111
    }
}
