import PostgresStore

/// The Preferences table of a PostgreSQL database, as versioned migrations: the same columns
/// and checks as the SQLite store's (`PreferencesSchema`).
///
/// A migration, once released, never changes: a new version of the schema is a new migration.
public enum PreferencesPostgresSchema {
    /// The Preferences migrations, oldest first.
    public static let migrations: [PostgresMigration] = [
        PostgresMigration("preferences.postgres.v1.per-user", statements: [
            """
            CREATE TABLE preference (
                user_id TEXT COLLATE "C" PRIMARY KEY,
                theme TEXT NOT NULL,
                default_currency TEXT NOT NULL CHECK (length(default_currency) = 3)
            )
            """,
        ]),
    ]
}
