import NIOCore
import PostgresNIO

/// A value bound to a statement's parameter (`$1`, `$2`, ...): values always travel apart from
/// the SQL text, never written into it.
public enum SQLValue: Sendable, Equatable {
    case text(String)
    /// BIGINT.
    case integer(Int64)
    /// DOUBLE PRECISION.
    case real(Double)
    case boolean(Bool)
    /// BYTEA.
    case bytes([UInt8])
    /// TEXT[], for `= ANY($1)` and `unnest($1)`.
    case texts([String])
    case null

    func bind(into bindings: inout PostgresBindings) {
        switch self {
        case .text(let value): bindings.append(value)
        case .integer(let value): bindings.append(value)
        case .real(let value): bindings.append(value)
        case .boolean(let value): bindings.append(value)
        case .bytes(let value): bindings.append(ByteBuffer(bytes: value))
        case .texts(let value): bindings.append(value)
        case .null: bindings.appendNull()
        }
    }
}

/// A Swift value that binds to a parameter.
public protocol SQLValueConvertible {
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLValueConvertible {
    public var sqlValue: SQLValue { self }
}

extension String: SQLValueConvertible {
    public var sqlValue: SQLValue { .text(self) }
}

extension Int64: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(self) }
}

extension Int: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Double: SQLValueConvertible {
    public var sqlValue: SQLValue { .real(self) }
}

extension Bool: SQLValueConvertible {
    public var sqlValue: SQLValue { .boolean(self) }
}

extension Array: SQLValueConvertible where Element == String {
    public var sqlValue: SQLValue { .texts(self) }
}

extension Optional: SQLValueConvertible where Wrapped: SQLValueConvertible {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}
