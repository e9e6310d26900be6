import PostgresStore

/// The Groups tables of a PostgreSQL database, as versioned migrations: the same columns, keys
/// and checks as the SQLite store's (`GroupsSchema`). Ids compare in the "C" collation (code
/// point order), as in SQLite.
///
/// A migration, once released, never changes: a new version of the schema is a new migration.
public enum GroupsPostgresSchema {
    /// The Groups migrations, oldest first.
    public static let migrations: [PostgresMigration] = [
        PostgresMigration("groups.postgres.v1.groups-and-members", statements: [
            // "group_" because GROUP is a keyword of SQL.
            """
            CREATE TABLE group_ (
                id TEXT COLLATE "C" PRIMARY KEY,
                name TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 200),
                kind TEXT COLLATE "C" NOT NULL,
                currency TEXT COLLATE "C" NOT NULL CHECK (length(currency) = 3),
                simplify_debts BOOLEAN NOT NULL,
                archived BOOLEAN NOT NULL DEFAULT false,
                created_by TEXT COLLATE "C" NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            )
            """,
            // Each member once, in the order they joined; each user's groups are one range of
            // the second index.
            """
            CREATE TABLE group_member (
                group_id TEXT COLLATE "C" NOT NULL REFERENCES group_(id) ON DELETE CASCADE,
                user_id TEXT COLLATE "C" NOT NULL,
                position BIGINT NOT NULL,
                added_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (group_id, user_id),
                UNIQUE (group_id, position)
            )
            """,
            "CREATE INDEX group_member_user ON group_member (user_id, group_id)",
        ]),
    ]
}
