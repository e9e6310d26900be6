import Crypto
import Primitives

/// The keys of a file's rows: a hash of each row's content (so a later export of the same
/// history, with more rows or more people, gives a row the same key), numbered `#1`, `#2`, ...
/// when the same content comes again in the file.
struct RowKeys {
    let format: String
    private var seen: [String: Int] = [:]

    init(format: String) {
        self.format = format
    }

    mutating func key(_ fields: [String]) -> String {
        let text = ([format] + fields).joined(separator: "\u{1F}")
        let hash = SHA256.hash(data: Array(text.utf8)).hexString
        let occurrence = seen[hash, default: 0]
        seen[hash] = occurrence + 1
        return occurrence == 0 ? hash : "\(hash)#\(occurrence)"
    }
}

extension String {
    /// On one line: line breaks and runs of spaces become one space, none at either end.
    var oneLine: String {
        split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
    }
}
