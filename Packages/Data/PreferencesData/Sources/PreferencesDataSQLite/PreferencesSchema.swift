import GRDB

/// The Preferences tables of the embedded store, as versioned migrations.
///
/// A migration, once released, never changes: a new version of the schema is a new migration.
public enum PreferencesSchema {
    /// Registers the Preferences migrations, oldest first.
    public static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("preferences.v1.per-user") { db in
            try db.execute(sql: """
                CREATE TABLE preference (
                    user_id TEXT PRIMARY KEY NOT NULL,
                    theme TEXT NOT NULL,
                    default_currency TEXT NOT NULL CHECK (length(default_currency) = 3)
                ) STRICT, WITHOUT ROWID;
                """)
        }
    }
}
