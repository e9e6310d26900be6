import GRDB

/// The Accounts tables of the embedded store, as versioned migrations.
///
/// A migration, once released, never changes: a new version of the schema is a new migration.
public enum AccountsSchema {
    /// Registers the Accounts migrations, oldest first.
    public static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("accounts.v1.users-and-sessions") { db in
            try db.execute(sql: """
                CREATE TABLE user (
                    id TEXT PRIMARY KEY NOT NULL,
                    email TEXT NOT NULL CHECK (length(trim(email)) > 0),
                    email_key TEXT NOT NULL UNIQUE CHECK (email_key = lower(email_key) AND length(email_key) > 0),
                    display_name TEXT NOT NULL CHECK (length(trim(display_name)) BETWEEN 1 AND 200),
                    password_hash TEXT NOT NULL CHECK (length(password_hash) > 0),
                    created_at REAL NOT NULL
                ) STRICT;

                CREATE TABLE session (
                    token_hash TEXT PRIMARY KEY NOT NULL CHECK (length(token_hash) = 64),
                    user_id TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    created_at REAL NOT NULL
                ) STRICT;

                CREATE INDEX session_user_id ON session(user_id);
                """)
        }
        migrator.registerMigration("accounts.v2.session-last-used") { db in
            try db.execute(sql: """
                ALTER TABLE session ADD COLUMN last_used_at REAL NOT NULL DEFAULT 0;
                UPDATE session SET last_used_at = created_at;
                """)
        }
    }
}
