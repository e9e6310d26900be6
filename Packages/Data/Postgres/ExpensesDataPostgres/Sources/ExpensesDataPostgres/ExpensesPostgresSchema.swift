import PostgresStore

/// The Expenses tables of a PostgreSQL database, as versioned migrations: the tables, columns,
/// keys and checks the SQLite store has after all its migrations (`ExpensesSchema`, v1 to v8), in
/// one first version. Money is BIGINT minor units, days `yyyy-MM-dd` texts, instants seconds
/// since 1970 (DOUBLE PRECISION, as the records carry them).
///
/// Texts that are compared or ordered (ids, days, currencies, categories) use the "C" collation:
/// code point order, as SQLite's, whatever the database's locale; so lists tie-break alike and a
/// pair's low side is the one Swift's `<` puts first.
/// A migration, once released, never changes: a new version of the schema is a new migration.
public enum ExpensesPostgresSchema {
    /// The Expenses migrations, oldest first.
    public static let migrations: [PostgresMigration] = [
        PostgresMigration("expenses.postgres.v1.ledger", statements: [
            """
            CREATE TABLE expense (
                id TEXT COLLATE "C" PRIMARY KEY,
                description TEXT NOT NULL CHECK (length(trim(description)) > 0),
                amount BIGINT NOT NULL CHECK (amount > 0),
                currency TEXT COLLATE "C" NOT NULL CHECK (length(currency) = 3),
                day TEXT COLLATE "C" NOT NULL CHECK (day ~ '^[0-9]{4}-[0-1][0-9]-[0-3][0-9]$'),
                category TEXT COLLATE "C" NOT NULL,
                split_mode TEXT NOT NULL,
                created_by TEXT COLLATE "C" NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                note TEXT CHECK (note IS NULL OR length(note) > 0)
            )
            """,
            // Who is in an expense: what they paid (with the payer's place in the list) and their
            // part (with the part's place and what the rule gave them). The expense's day and
            // time of writing are copied here, so a page of someone's expenses is read in order
            // from their index; its category and currency too, so a report of someone's spending
            // reads their rows and nothing else.
            """
            CREATE TABLE expense_person (
                expense_id TEXT COLLATE "C" NOT NULL REFERENCES expense(id) ON DELETE CASCADE,
                user_id TEXT COLLATE "C" NOT NULL,
                day TEXT COLLATE "C" NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                category TEXT COLLATE "C" NOT NULL,
                currency TEXT COLLATE "C" NOT NULL,
                paid BIGINT CHECK (paid > 0),
                paid_position INTEGER CHECK ((paid IS NULL) = (paid_position IS NULL)),
                part BIGINT CHECK (part >= 0),
                part_position INTEGER CHECK ((part IS NULL) = (part_position IS NULL)),
                rule_value BIGINT,
                CHECK (paid IS NOT NULL OR part IS NOT NULL),
                PRIMARY KEY (expense_id, user_id)
            )
            """,
            "CREATE INDEX expense_person_by_day ON expense_person (user_id, day DESC, created_at DESC, expense_id)",
            """
            CREATE TABLE settlement (
                id TEXT COLLATE "C" PRIMARY KEY,
                from_user TEXT COLLATE "C" NOT NULL,
                to_user TEXT COLLATE "C" NOT NULL CHECK (to_user <> from_user),
                amount BIGINT NOT NULL CHECK (amount > 0),
                currency TEXT COLLATE "C" NOT NULL CHECK (length(currency) = 3),
                day TEXT COLLATE "C" NOT NULL CHECK (day ~ '^[0-9]{4}-[0-1][0-9]-[0-3][0-9]$'),
                created_by TEXT COLLATE "C" NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX settlement_from ON settlement (from_user, day DESC, created_at DESC, id)",
            "CREATE INDEX settlement_to ON settlement (to_user, day DESC, created_at DESC, id)",
            // The balances a payment moved when it cleared debts through a third person.
            """
            CREATE TABLE settlement_leg (
                settlement_id TEXT COLLATE "C" NOT NULL REFERENCES settlement(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                creditor TEXT COLLATE "C" NOT NULL,
                debtor TEXT COLLATE "C" NOT NULL CHECK (debtor <> creditor),
                amount BIGINT NOT NULL CHECK (amount > 0),
                PRIMARY KEY (settlement_id, position)
            )
            """,
            "CREATE INDEX settlement_leg_creditor ON settlement_leg (creditor)",
            "CREATE INDEX settlement_leg_debtor ON settlement_leg (debtor)",
            // What `user_high` owes `user_low`, kept up to date by every write: a user's
            // balances are two index ranges, never a scan of expenses.
            """
            CREATE TABLE balance (
                user_low TEXT COLLATE "C" NOT NULL,
                user_high TEXT COLLATE "C" NOT NULL CHECK (user_low < user_high),
                currency TEXT COLLATE "C" NOT NULL,
                amount BIGINT NOT NULL CHECK (amount <> 0),
                PRIMARY KEY (user_low, user_high, currency)
            )
            """,
            "CREATE INDEX balance_high ON balance (user_high, user_low, currency)",
            // Activity is numbered in the order it was written; each person's list refers to
            // that number and is read newest first from its key.
            """
            CREATE TABLE activity (
                seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                id TEXT COLLATE "C" NOT NULL,
                at DOUBLE PRECISION NOT NULL,
                actor TEXT COLLATE "C" NOT NULL,
                kind TEXT NOT NULL,
                subject TEXT COLLATE "C" NOT NULL,
                summary TEXT NOT NULL
            )
            """,
            """
            CREATE TABLE activity_person (
                user_id TEXT COLLATE "C" NOT NULL,
                at DOUBLE PRECISION NOT NULL,
                seq BIGINT NOT NULL REFERENCES activity(seq) ON DELETE CASCADE,
                PRIMARY KEY (user_id, at, seq)
            )
            """,
            "CREATE INDEX activity_person_by_seq ON activity_person (seq)",
            // A deleted expense, kept with its people to be restored as it was.
            """
            CREATE TABLE deleted_expense (
                id TEXT COLLATE "C" PRIMARY KEY,
                description TEXT NOT NULL,
                amount BIGINT NOT NULL,
                currency TEXT COLLATE "C" NOT NULL,
                day TEXT COLLATE "C" NOT NULL,
                category TEXT COLLATE "C" NOT NULL,
                split_mode TEXT NOT NULL,
                created_by TEXT COLLATE "C" NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                note TEXT,
                deleted_by TEXT COLLATE "C" NOT NULL,
                deleted_at DOUBLE PRECISION NOT NULL
            )
            """,
            """
            CREATE TABLE deleted_expense_person (
                expense_id TEXT COLLATE "C" NOT NULL REFERENCES deleted_expense(id) ON DELETE CASCADE,
                user_id TEXT COLLATE "C" NOT NULL,
                deleted_at DOUBLE PRECISION NOT NULL,
                paid BIGINT,
                paid_position INTEGER,
                part BIGINT,
                part_position INTEGER,
                rule_value BIGINT,
                PRIMARY KEY (expense_id, user_id)
            )
            """,
            "CREATE INDEX deleted_expense_person_by_time ON deleted_expense_person (user_id, deleted_at DESC, expense_id)",
        ]),
        // An activity line and its people go in together, in one statement, and lines are never
        // deleted: the key to `activity` checked nothing. It cost a great deal: checking it reads
        // the page of the newest line, where every concurrent write puts its own, so
        // SERIALIZABLE writes that each added a line failed to serialize with one another (6 in
        // 10 expenses added under load were run again).
        PostgresMigration("expenses.postgres.v2.activity-people-without-foreign-key", statements: [
            "ALTER TABLE activity_person DROP CONSTRAINT IF EXISTS activity_person_seq_fkey",
        ]),
        // The pairs an expense's balances move follow the places of its payers and parts, no
        // longer their user ids (which a contact linked to an account changes). That order
        // matters only where at least two people come out ahead and two behind; those expenses,
        // written when the ids decided, have their places numbered in id order, so each keeps the
        // pairs it moved. (Parts are read as kept: ties need nothing.)
        PostgresMigration(
            "expenses.postgres.v3.places-in-id-order",
            statements: ["expense_person", "deleted_expense_person"].flatMap { table in
                [("paid", "paid_position"), ("part", "part_position")].map { amount, position in
                    """
                    UPDATE \(table) AS person SET \(position) = ranked.place
                    FROM (
                        SELECT expense_id, user_id, row_number() OVER (PARTITION BY expense_id ORDER BY user_id) - 1 AS place
                        FROM \(table)
                        WHERE \(amount) IS NOT NULL AND expense_id IN (
                            SELECT expense_id FROM \(table) GROUP BY expense_id
                            HAVING count(*) FILTER (WHERE coalesce(paid, 0) > coalesce(part, 0)) >= 2
                               AND count(*) FILTER (WHERE coalesce(paid, 0) < coalesce(part, 0)) >= 2
                        )
                    ) AS ranked
                    WHERE person.expense_id = ranked.expense_id AND person.user_id = ranked.user_id
                    """
                }
            }
        ),
        // Each expense counts its changes: an edit or a delete says which it was made from.
        PostgresMigration("expenses.postgres.v4.versions", statements: [
            "ALTER TABLE expense ADD COLUMN version BIGINT NOT NULL DEFAULT 1 CHECK (version >= 1)",
            "ALTER TABLE deleted_expense ADD COLUMN version BIGINT NOT NULL DEFAULT 1 CHECK (version >= 1)",
        ]),
        // Each change to an expense keeps the expense as it left it, whole; its history is its
        // activity lines, found by the expense's id.
        PostgresMigration("expenses.postgres.v5.kept-changes", statements: [
            "ALTER TABLE activity ADD COLUMN snapshot TEXT",
            "CREATE INDEX activity_subject ON activity (subject, seq)",
        ]),
        // Expenses and payments may be filed under a group (the Groups area keeps the groups):
        // each pair's balance within a group is kept beside its overall balance, which includes it.
        PostgresMigration("expenses.postgres.v6.groups", statements: [
            "ALTER TABLE expense ADD COLUMN group_id TEXT COLLATE \"C\"",
            "ALTER TABLE deleted_expense ADD COLUMN group_id TEXT COLLATE \"C\"",
            "ALTER TABLE settlement ADD COLUMN group_id TEXT COLLATE \"C\"",
            "CREATE INDEX expense_by_group ON expense (group_id, day DESC, created_at DESC, id) WHERE group_id IS NOT NULL",
            "CREATE INDEX settlement_by_group ON settlement (group_id, day DESC, created_at DESC, id) WHERE group_id IS NOT NULL",
            """
            CREATE TABLE group_balance (
                group_id TEXT COLLATE "C" NOT NULL,
                user_low TEXT COLLATE "C" NOT NULL,
                user_high TEXT COLLATE "C" NOT NULL CHECK (user_low < user_high),
                currency TEXT COLLATE "C" NOT NULL,
                amount BIGINT NOT NULL CHECK (amount <> 0),
                PRIMARY KEY (group_id, user_low, user_high, currency)
            )
            """,
            "CREATE INDEX group_balance_low ON group_balance (user_low, group_id)",
            "CREATE INDEX group_balance_high ON group_balance (user_high, group_id)",
        ]),
        // What each user imported from files, by each entry's key: importing again adds it once.
        PostgresMigration("expenses.postgres.v7.imports", statements: [
            """
            CREATE TABLE imported_entry (
                user_id TEXT COLLATE "C" NOT NULL,
                key TEXT COLLATE "C" NOT NULL,
                subject TEXT COLLATE "C" NOT NULL,
                imported_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (user_id, key)
            )
            """,
        ]),
        // A conversion is a payment its payer makes by owing the payee its worth in another
        // currency: that side and the rate it was worked out at are kept with it, all or none.
        PostgresMigration("expenses.postgres.v8.conversions", statements: [
            """
            ALTER TABLE settlement
                ADD COLUMN converted_amount BIGINT CHECK (converted_amount > 0),
                ADD COLUMN converted_currency TEXT COLLATE "C",
                ADD COLUMN rate_base TEXT COLLATE "C",
                ADD COLUMN rate TEXT COLLATE "C",
                ADD COLUMN rate_source TEXT,
                ADD CONSTRAINT settlement_conversion_whole CHECK (
                    (converted_amount IS NULL) = (converted_currency IS NULL)
                    AND (converted_amount IS NULL) = (rate_base IS NULL)
                    AND (converted_amount IS NULL) = (rate IS NULL)
                    AND (converted_amount IS NULL) = (rate_source IS NULL)
                )
            """,
        ]),
        // Each expense's thread: kept by the expense's id, so a deleted expense keeps its
        // comments and a restored one has them back.
        PostgresMigration("expenses.postgres.v9.comments", statements: [
            """
            CREATE TABLE expense_comment (
                id TEXT COLLATE "C" PRIMARY KEY,
                expense_id TEXT COLLATE "C" NOT NULL,
                author TEXT COLLATE "C" NOT NULL,
                at DOUBLE PRECISION NOT NULL,
                text TEXT NOT NULL CHECK (char_length(text) BETWEEN 1 AND 1000)
            )
            """,
            "CREATE INDEX expense_comment_thread ON expense_comment (expense_id, at, id)",
            "CREATE INDEX expense_comment_author ON expense_comment (author)",
        ]),
        // Recurring expenses: each series keeps its first expense as the template, and each
        // occurrence claims its day once (the primary key), whichever server gets there first.
        PostgresMigration("expenses.postgres.v10.series", statements: [
            """
            CREATE TABLE expense_series (
                id TEXT COLLATE "C" PRIMARY KEY,
                created_by TEXT COLLATE "C" NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                template TEXT NOT NULL,
                frequency TEXT COLLATE "C" NOT NULL,
                start TEXT COLLATE "C" NOT NULL,
                end_day TEXT COLLATE "C",
                end_count INTEGER CHECK (end_count > 0),
                version INTEGER NOT NULL CHECK (version > 0)
            )
            """,
            """
            CREATE TABLE series_person (
                series_id TEXT COLLATE "C" NOT NULL REFERENCES expense_series(id) ON DELETE CASCADE,
                user_id TEXT COLLATE "C" NOT NULL,
                PRIMARY KEY (user_id, series_id)
            )
            """,
            """
            CREATE TABLE series_occurrence (
                series_id TEXT COLLATE "C" NOT NULL REFERENCES expense_series(id) ON DELETE CASCADE,
                day TEXT COLLATE "C" NOT NULL,
                expense_id TEXT COLLATE "C" NOT NULL,
                PRIMARY KEY (series_id, day)
            )
            """,
            "CREATE INDEX series_occurrence_expense ON series_occurrence (expense_id)",
        ]),
    ]
}
