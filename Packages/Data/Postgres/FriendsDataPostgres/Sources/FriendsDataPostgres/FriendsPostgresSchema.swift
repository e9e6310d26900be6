import PostgresStore

/// The Friends tables of a PostgreSQL database, as versioned migrations: the same columns, keys
/// and checks as the SQLite store's (`FriendsSchema`). Ids compare in the "C" collation (code
/// point order), as in SQLite.
///
/// A migration, once released, never changes: a new version of the schema is a new migration.
public enum FriendsPostgresSchema {
    /// The Friends migrations, oldest first.
    public static let migrations: [PostgresMigration] = [
        PostgresMigration("friends.postgres.v1.friends-and-contacts", statements: [
            // A friendship between two accounts: one row each way, so each side's list is one
            // range of the key.
            """
            CREATE TABLE friendship (
                user_id TEXT COLLATE "C" NOT NULL,
                friend_id TEXT COLLATE "C" NOT NULL CHECK (friend_id <> user_id),
                since DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (user_id, friend_id)
            )
            """,
            // A person without an account, kept by the user who added them.
            """
            CREATE TABLE contact (
                id TEXT COLLATE "C" PRIMARY KEY,
                owner_id TEXT COLLATE "C" NOT NULL CHECK (owner_id <> id),
                name TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 200),
                email TEXT,
                email_key TEXT COLLATE "C" CHECK ((email IS NULL) = (email_key IS NULL) AND email_key = lower(email_key)),
                created_at DOUBLE PRECISION NOT NULL,
                linked_to TEXT COLLATE "C" CHECK (linked_to <> id),
                removed BOOLEAN NOT NULL DEFAULT false
            )
            """,
            "CREATE INDEX contact_owner ON contact (owner_id, id)",
            "CREATE INDEX contact_email ON contact (email_key, id) WHERE email_key IS NOT NULL",
        ]),
        PostgresMigration("friends.postgres.v2.requests-and-blocks", statements: [
            // A request to become friends, waiting for the recipient's answer; with the sender's
            // contact to link to the recipient when it came from a link.
            """
            CREATE TABLE friend_request (
                from_id TEXT COLLATE "C" NOT NULL,
                to_id TEXT COLLATE "C" NOT NULL CHECK (to_id <> from_id),
                sent_at DOUBLE PRECISION NOT NULL,
                contact_id TEXT COLLATE "C",
                PRIMARY KEY (from_id, to_id)
            )
            """,
            "CREATE INDEX friend_request_to ON friend_request (to_id, from_id)",
            // One account's block of another.
            """
            CREATE TABLE friend_block (
                user_id TEXT COLLATE "C" NOT NULL,
                blocked_id TEXT COLLATE "C" NOT NULL CHECK (blocked_id <> user_id),
                since DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (user_id, blocked_id)
            )
            """,
            "CREATE INDEX friend_block_blocked ON friend_block (blocked_id, user_id)",
        ]),
        // A contact's owner said it is not this account: its claim is not asked again.
        PostgresMigration("friends.postgres.v3.declined-claims", statements: [
            """
            CREATE TABLE friend_claim_declined (
                contact_id TEXT COLLATE "C" NOT NULL,
                account_id TEXT COLLATE "C" NOT NULL,
                PRIMARY KEY (contact_id, account_id)
            )
            """,
        ]),
    ]
}
