import GRDB

/// SQLite's own words for a failed open or migration ("unable to open database file",
/// "table user already exists"), without GRDB's wrapping ("SQLite error 14: ... - while
/// executing ..."). File errors elsewhere in LocalStore come from the system calls themselves,
/// as `strerror` text.
enum FileProblem {
    static func reason(_ error: any Error) -> String {
        guard let database = error as? DatabaseError else { return "\(error)" }
        return database.message ?? "SQLite result \(database.extendedResultCode)"
    }
}
