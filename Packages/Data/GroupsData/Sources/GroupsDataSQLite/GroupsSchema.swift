import GRDB

/// The Groups tables of the embedded store, as versioned migrations.
///
/// A migration, once released, never changes: a new version of the schema is a new migration.
public enum GroupsSchema {
    /// Registers the Groups migrations, oldest first.
    public static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("groups.v1.groups-and-members") { db in
            try db.execute(sql: """
                -- The table is "group_" because GROUP is a keyword of SQL.
                CREATE TABLE group_ (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 200),
                    kind TEXT NOT NULL,
                    currency TEXT NOT NULL CHECK (length(currency) = 3),
                    simplify_debts INTEGER NOT NULL CHECK (simplify_debts IN (0, 1)),
                    archived INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1)),
                    created_by TEXT NOT NULL,
                    created_at REAL NOT NULL
                ) STRICT, WITHOUT ROWID;

                -- Each member once, in the order they joined; each user's groups are one range
                -- of the second index.
                CREATE TABLE group_member (
                    group_id TEXT NOT NULL REFERENCES group_(id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    added_at REAL NOT NULL,
                    PRIMARY KEY (group_id, user_id),
                    UNIQUE (group_id, position)
                ) STRICT, WITHOUT ROWID;
                CREATE INDEX group_member_user ON group_member(user_id);
                """)
        }
    }
}
