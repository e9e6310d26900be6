import NIOPosix
import PostgresNIO

/// What went wrong with the PostgreSQL database, in terms a store can act on: a constraint that
/// refused a write (which the area stores turn into their own refusals), or a database that
/// cannot be used now (which the domain reports as an unavailable store).
public enum ServerDatabaseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server cannot be reached, refused the connection, closed it, or the database was shut
    /// down: nothing was written (or, for a lost commit, it is not known whether it was).
    case unavailable(String)
    /// A constraint refused a write (unique, check, foreign key, not null).
    case constraint(ConstraintViolation)
    /// A number did not fit its column or type (SQLSTATE 22003).
    case outOfRange(String)
    /// A write kept failing to serialize with concurrent ones, and was given up after `attempts`.
    case conflict(attempts: Int)
    /// The database has migrations this build does not know: it was written by a newer version,
    /// and is refused rather than used.
    case newerSchema(database: String, unknownMigrations: [String])
    /// A value read back does not have the type asked for: the schema is not what the code expects.
    case damaged(String)
    /// Any other error the server reported, with its SQLSTATE.
    case rejected(sqlState: String, message: String)
    /// A read that ran its first statement on its own came to a second one: it is run again in a
    /// transaction. ``ServerDatabase`` does that itself; a body that catches this has it thrown
    /// again.
    case needsTransaction

    public var description: String {
        switch self {
        case .unavailable(let reason): "the database is unavailable: \(reason)"
        case .constraint(let violation): violation.message
        case .outOfRange(let message): "a number is out of range: \(message)"
        case .conflict(let attempts): "the write conflicted with concurrent writes \(attempts) times in a row and was given up"
        case .newerSchema(let database, let unknown):
            "the database \(database) was migrated by a newer version (migrations this build does not know: \(unknown.joined(separator: ", "))); it is left as it is"
        case .damaged(let reason): "the database holds what this build cannot read: \(reason)"
        case .rejected(let state, let message): "the database refused a statement (SQLSTATE \(state)): \(message)"
        case .needsTransaction: "a read of more than one statement was begun outside a transaction"
        }
    }

    /// A failure a write may be run again for: a serialization failure or a deadlock.
    var isRetryable: Bool {
        guard case .rejected(let state, _) = self else { return false }
        return state == "40001" || state == "40P01"
    }

    /// Any error of the driver, the network or the server, in these terms.
    init(_ error: any Error) {
        if let error = error as? ServerDatabaseError {
            self = error
        } else if let error = error as? PSQLError {
            self = Self(error)
        } else if error is NIOThreadPoolError.ThreadPoolInactive {
            self = .unavailable("it was shut down")
        } else {
            self = .unavailable(String(describing: error))
        }
    }

    private init(_ error: PSQLError) {
        guard error.code == .server, let info = error.serverInfo else {
            // Not the server's answer: the connection failed, closed, or could not be made.
            let reason = error.underlying.map { String(describing: $0) } ?? String(describing: error.code)
            self = .unavailable(reason)
            return
        }
        let state = info[.sqlState] ?? ""
        let message = info[.message] ?? "SQLSTATE \(state)"
        let violation = { (kind: ConstraintViolation.Kind) in
            ConstraintViolation(kind: kind, constraint: info[.constraintName], table: info[.tableName], message: message)
        }
        self = switch state {
        case "23505": .constraint(violation(.unique))
        case "23514": .constraint(violation(.check))
        case "23503": .constraint(violation(.foreignKey))
        case "23502": .constraint(violation(.notNull))
        case "23P01": .constraint(violation(.exclusion))
        case "22003": .outOfRange(message)
        // Connection exceptions, the server shutting down or not accepting connections yet, too
        // many connections, a database or role that does not exist, a wrong password.
        case _ where state.hasPrefix("08"), "57P01", "57P02", "57P03", "53300", "3D000", "28000", "28P01":
            .unavailable(message)
        default: .rejected(sqlState: state, message: message)
        }
    }
}

/// A constraint of the database that refused a write, as the server named it.
public struct ConstraintViolation: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case unique, check, foreignKey, notNull, exclusion
    }

    public var kind: Kind
    /// The constraint's name (`account_email_key`), when the server gave one.
    public var constraint: String?
    public var table: String?
    /// The server's message ("duplicate key value violates unique constraint ...").
    public var message: String

    public init(kind: Kind, constraint: String?, table: String?, message: String) {
        self.kind = kind
        self.constraint = constraint
        self.table = table
        self.message = message
    }
}
