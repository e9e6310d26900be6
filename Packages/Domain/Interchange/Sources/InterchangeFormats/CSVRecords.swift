import CSV
import Foundation
import Interchange
import Primitives

/// A CSV file's records, read by CSV.swift: quoted commas and line breaks, CRLF, a UTF-8 byte
/// order mark. Each record is numbered from 1, blank ones included.
enum CSVRecords {
    /// The records of the file at `path`, read whole (CSV.swift's stream reader reports the end
    /// of a file as a failure to read it).
    static func read(contentsOf path: String, _ body: (Int, [String]) throws(SheetProblems) -> Void) throws(SheetProblems) {
        try read(text: try fileText(path), body)
    }

    /// The records of `text`.
    static func read(text: String, _ body: (Int, [String]) throws(SheetProblems) -> Void) throws(SheetProblems) {
        let unmarked = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        let reader: CSVReader
        do {
            reader = try CSVReader(string: unmarked)
        } catch {
            throw SheetProblems([SheetNote(row: nil, "The text cannot be read as CSV (\(error)).")])
        }
        try records(of: reader, body)
    }

    private static func records(of reader: CSVReader, _ body: (Int, [String]) throws(SheetProblems) -> Void) throws(SheetProblems) {
        var number = 0
        while let record = reader.next() {
            number += 1
            try body(number, record.map { $0.trimmingWhitespace() })
        }
        if let error = reader.error {
            let why = if case .unicodeDecoding? = error as? CSVError { "it is not UTF-8 text" } else { "\(error)" }
            throw SheetProblems([SheetNote(row: number + 1, "The file cannot be read past here: \(why).")])
        }
    }
}

/// The UTF-8 text of the file at `path`, or why it cannot be read.
func fileText(_ path: String) throws(SheetProblems) -> String {
    guard let data = FileManager.default.contents(atPath: path) else { throw SheetProblems([SheetNote(row: nil, "\(path) cannot be read.")]) }
    guard let text = String(data: data, encoding: .utf8) else { throw SheetProblems([SheetNote(row: nil, "\(path) is not UTF-8 text.")]) }
    return text
}
