import GRDB
import Primitives

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
        // Every user gets a friend code; those who signed up before get one here. (ALTER TABLE
        // cannot add a UNIQUE column: the uniqueness is an index, made once every row has its
        // code.)
        migrator.registerMigration("accounts.v3.friend-codes") { db in
            try db.execute(sql: "ALTER TABLE user ADD COLUMN friend_code TEXT NOT NULL DEFAULT ''")
            let random = SystemRandomSource()
            var used: Set<String> = []
            for id in try String.fetchAll(db, sql: "SELECT id FROM user ORDER BY created_at, id") {
                var code = FriendCode.random(using: random).rawValue
                while !used.insert(code).inserted { code = FriendCode.random(using: random).rawValue }
                try db.execute(sql: "UPDATE user SET friend_code = ? WHERE id = ?", arguments: [code, id])
            }
            try db.execute(sql: """
                CREATE UNIQUE INDEX user_friend_code ON user(friend_code);
                CREATE TRIGGER user_friend_code_shape BEFORE INSERT ON user
                    WHEN length(NEW.friend_code) <> 9 OR NEW.friend_code <> upper(NEW.friend_code)
                    BEGIN SELECT RAISE(ABORT, 'a friend code is nine upper-case characters'); END;
                """)
        }
        // An avatar is kept in the store, picture and all (at most 1 MiB), not as a path to the
        // user's file, which may move or go.
        migrator.registerMigration("accounts.v4.avatars") { db in
            try db.execute(sql: """
                CREATE TABLE avatar (
                    user_id TEXT PRIMARY KEY NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL CHECK (kind IN ('initials', 'image')),
                    colour TEXT CHECK ((kind = 'initials') = (colour IS NOT NULL)),
                    format TEXT CHECK ((kind = 'image') = (format IS NOT NULL)),
                    width INTEGER CHECK (width BETWEEN 1 AND 4096),
                    height INTEGER CHECK (height BETWEEN 1 AND 4096),
                    bytes BLOB CHECK ((kind = 'image') = (bytes IS NOT NULL) AND (bytes IS NULL OR length(bytes) BETWEEN 1 AND 1048576))
                ) STRICT;
                """)
        }
        // What signed in, for the user's list of their sessions (at most 200 characters).
        migrator.registerMigration("accounts.v5.session-client") { db in
            try db.execute(sql: "ALTER TABLE session ADD COLUMN client TEXT NOT NULL DEFAULT '' CHECK (length(client) <= 200)")
        }
        // Whether a user proved their email, and the code waiting to prove it (hashed; one per
        // user). Accounts from before are unproved; where no emails are verified (this store on
        // one machine), that changes nothing.
        migrator.registerMigration("accounts.v6.email-verification") { db in
            try db.execute(sql: """
                ALTER TABLE user ADD COLUMN email_verified_at REAL;

                CREATE TABLE email_verification (
                    user_id TEXT PRIMARY KEY NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    email_key TEXT NOT NULL CHECK (length(email_key) > 0),
                    code_hash TEXT NOT NULL CHECK (length(code_hash) = 64),
                    sent_at REAL NOT NULL,
                    tries_left INTEGER NOT NULL CHECK (tries_left >= 0)
                ) STRICT;
                """)
        }
    }
}
