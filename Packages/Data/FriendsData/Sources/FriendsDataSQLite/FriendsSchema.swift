import GRDB

/// The Friends tables of the embedded store, as versioned migrations.
///
/// A migration, once released, never changes: a new version of the schema is a new migration.
public enum FriendsSchema {
    /// Registers the Friends migrations, oldest first.
    public static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("friends.v1.friends-and-contacts") { db in
            try db.execute(sql: """
                -- A friendship between two accounts: one row each way, so each side's list is one
                -- range of the key.
                CREATE TABLE friendship (
                    user_id TEXT NOT NULL,
                    friend_id TEXT NOT NULL CHECK (friend_id <> user_id),
                    since REAL NOT NULL,
                    PRIMARY KEY (user_id, friend_id)
                ) STRICT, WITHOUT ROWID;

                -- A person without an account, kept by the user who added them.
                CREATE TABLE contact (
                    id TEXT PRIMARY KEY NOT NULL,
                    owner_id TEXT NOT NULL CHECK (owner_id <> id),
                    name TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 200),
                    email TEXT,
                    email_key TEXT CHECK ((email IS NULL) = (email_key IS NULL) AND email_key = lower(email_key)),
                    created_at REAL NOT NULL,
                    linked_to TEXT CHECK (linked_to <> id),
                    removed INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1))
                ) STRICT, WITHOUT ROWID;
                CREATE INDEX contact_owner ON contact(owner_id);
                CREATE INDEX contact_email ON contact(email_key) WHERE email_key IS NOT NULL;
                """)
        }
        migrator.registerMigration("friends.v2.requests-and-blocks") { db in
            try db.execute(sql: """
                -- A request to become friends, waiting for the recipient's answer; with the
                -- sender's contact to link to the recipient when it came from a link.
                CREATE TABLE friend_request (
                    from_id TEXT NOT NULL,
                    to_id TEXT NOT NULL CHECK (to_id <> from_id),
                    sent_at REAL NOT NULL,
                    contact_id TEXT,
                    PRIMARY KEY (from_id, to_id)
                ) STRICT, WITHOUT ROWID;
                CREATE INDEX friend_request_to ON friend_request(to_id, from_id);

                -- One account's block of another.
                CREATE TABLE friend_block (
                    user_id TEXT NOT NULL,
                    blocked_id TEXT NOT NULL CHECK (blocked_id <> user_id),
                    since REAL NOT NULL,
                    PRIMARY KEY (user_id, blocked_id)
                ) STRICT, WITHOUT ROWID;
                CREATE INDEX friend_block_blocked ON friend_block(blocked_id, user_id);
                """)
        }
        migrator.registerMigration("friends.v3.declined-claims") { db in
            try db.execute(sql: """
                -- A contact's owner said it is not this account: its claim is not asked again.
                CREATE TABLE friend_claim_declined (
                    contact_id TEXT NOT NULL,
                    account_id TEXT NOT NULL,
                    PRIMARY KEY (contact_id, account_id)
                ) STRICT, WITHOUT ROWID;
                """)
        }
    }
}
