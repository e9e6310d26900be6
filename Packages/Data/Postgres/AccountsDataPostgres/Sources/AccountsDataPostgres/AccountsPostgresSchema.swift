import PostgresStore

/// The Accounts tables of a PostgreSQL database, as versioned migrations: the same columns,
/// keys and checks as the SQLite store's (`AccountsSchema`), in one first version.
///
/// Texts that are compared or ordered use the "C" collation, which orders by code point and
/// lowers and uppers ASCII only, as SQLite does, whatever the database's locale.
/// A migration, once released, never changes: a new version of the schema is a new migration.
public enum AccountsPostgresSchema {
    /// The Accounts migrations, oldest first.
    public static let migrations: [PostgresMigration] = [
        PostgresMigration("accounts.postgres.v1.accounts-sessions-avatars", statements: [
            // `user` is a reserved word in PostgreSQL: the table is `account`.
            """
            CREATE TABLE account (
                id TEXT COLLATE "C" PRIMARY KEY,
                email TEXT NOT NULL CHECK (length(trim(email)) > 0),
                email_key TEXT COLLATE "C" NOT NULL CHECK (email_key = lower(email_key) AND length(email_key) > 0),
                display_name TEXT NOT NULL CHECK (length(trim(display_name)) BETWEEN 1 AND 200),
                friend_code TEXT COLLATE "C" NOT NULL CHECK (length(friend_code) = 9 AND friend_code = upper(friend_code)),
                password_hash TEXT NOT NULL CHECK (length(password_hash) > 0),
                created_at DOUBLE PRECISION NOT NULL,
                CONSTRAINT account_email_key UNIQUE (email_key),
                CONSTRAINT account_friend_code UNIQUE (friend_code)
            )
            """,
            """
            CREATE TABLE session (
                token_hash TEXT COLLATE "C" PRIMARY KEY CHECK (length(token_hash) = 64),
                user_id TEXT COLLATE "C" NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                created_at DOUBLE PRECISION NOT NULL,
                last_used_at DOUBLE PRECISION NOT NULL
            )
            """,
            // A user's sessions, oldest first, and their idle ones, by index.
            "CREATE INDEX session_by_user ON session (user_id, created_at, token_hash)",
            // An avatar is kept whole (at most 1 MiB), not as a path to the user's file.
            """
            CREATE TABLE avatar (
                user_id TEXT COLLATE "C" PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('initials', 'image')),
                colour TEXT CHECK ((kind = 'initials') = (colour IS NOT NULL)),
                format TEXT CHECK ((kind = 'image') = (format IS NOT NULL)),
                width INTEGER CHECK (width BETWEEN 1 AND 4096),
                height INTEGER CHECK (height BETWEEN 1 AND 4096),
                bytes BYTEA CHECK ((kind = 'image') = (bytes IS NOT NULL) AND (bytes IS NULL OR octet_length(bytes) BETWEEN 1 AND 1048576))
            )
            """,
        ]),
        // What signed in, for the user's list of their sessions (at most 200 characters).
        PostgresMigration("accounts.postgres.v2.session-client", statements: [
            "ALTER TABLE session ADD COLUMN client TEXT NOT NULL DEFAULT '' CHECK (char_length(client) <= 200)",
        ]),
        // Whether a user proved their email, and the code waiting to prove it (hashed; one per
        // user). Accounts from before are unproved until they enter a code.
        PostgresMigration("accounts.postgres.v3.email-verification", statements: [
            "ALTER TABLE account ADD COLUMN email_verified_at DOUBLE PRECISION",
            """
            CREATE TABLE email_verification (
                user_id TEXT COLLATE "C" PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE,
                email_key TEXT COLLATE "C" NOT NULL CHECK (length(email_key) > 0),
                code_hash TEXT COLLATE "C" NOT NULL CHECK (length(code_hash) = 64),
                sent_at DOUBLE PRECISION NOT NULL,
                tries_left INTEGER NOT NULL CHECK (tries_left >= 0)
            )
            """,
        ]),
    ]
}
