/// One versioned change of the schema. Once released it never changes: a new version of the
/// schema is a new migration, with a new identifier (by convention `area.vN.what-it-does`).
public struct PostgresMigration: Sendable {
    public let identifier: String
    let body: @Sendable (ServerTransaction) throws -> Void

    /// A migration that runs `statements` one after the other, in its transaction.
    public init(_ identifier: String, statements: [String]) {
        self.identifier = identifier
        body = { database in
            for statement in statements { try database.execute(statement) }
        }
    }

    /// A migration that needs code (to fill a new column row by row, say).
    public init(_ identifier: String, body: @escaping @Sendable (ServerTransaction) throws -> Void) {
        self.identifier = identifier
        self.body = body
    }
}
