import NIOCore
import PostgresNIO

/// One row of a result, read by column position. A value of another type than asked for, or a
/// NULL where a value is required, throws ``ServerDatabaseError/damaged(_:)``: never a crash.
public struct SQLRow {
    private let cells: [PostgresCell]

    init(_ row: PostgresRow) {
        cells = Array(row)
    }

    public var count: Int { cells.count }

    public func text(_ column: Int) throws(ServerDatabaseError) -> String {
        try required(column, try decode(String?.self, column))
    }

    public func optionalText(_ column: Int) throws(ServerDatabaseError) -> String? {
        try decode(String?.self, column)
    }

    public func integer(_ column: Int) throws(ServerDatabaseError) -> Int64 {
        try required(column, try decode(Int64?.self, column))
    }

    public func optionalInteger(_ column: Int) throws(ServerDatabaseError) -> Int64? {
        try decode(Int64?.self, column)
    }

    public func real(_ column: Int) throws(ServerDatabaseError) -> Double {
        try required(column, try decode(Double?.self, column))
    }

    public func optionalReal(_ column: Int) throws(ServerDatabaseError) -> Double? {
        try decode(Double?.self, column)
    }

    public func boolean(_ column: Int) throws(ServerDatabaseError) -> Bool {
        try required(column, try decode(Bool?.self, column))
    }

    public func optionalBytes(_ column: Int) throws(ServerDatabaseError) -> [UInt8]? {
        guard var buffer = try decode(ByteBuffer?.self, column) else { return nil }
        return buffer.readBytes(length: buffer.readableBytes) ?? []
    }

    /// A TEXT[] column; NULL reads as no texts.
    public func texts(_ column: Int) throws(ServerDatabaseError) -> [String] {
        try decode([String]?.self, column) ?? []
    }

    /// A BIGINT[] column; NULL reads as no numbers.
    public func integers(_ column: Int) throws(ServerDatabaseError) -> [Int64] {
        try decode([Int64]?.self, column) ?? []
    }

    private func decode<T: PostgresDecodable>(_ type: T.Type, _ column: Int) throws(ServerDatabaseError) -> T {
        guard cells.indices.contains(column) else {
            throw .damaged("a row of \(cells.count) columns has no column \(column)")
        }
        let cell = cells[column]
        do {
            return try cell.decode(T.self)
        } catch {
            throw .damaged("column \(cell.columnName) (\(cell.dataType)) is not a \(T.self)")
        }
    }

    private func required<T>(_ column: Int, _ value: T?) throws(ServerDatabaseError) -> T {
        guard let value else { throw .damaged("column \(cells[column].columnName) is NULL") }
        return value
    }
}
