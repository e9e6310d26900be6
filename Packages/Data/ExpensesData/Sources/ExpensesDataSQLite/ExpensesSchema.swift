import GRDB

/// The Expenses tables of the embedded store, as versioned migrations.
public enum ExpensesSchema {
    /// Registers the Expenses migrations, oldest first.
    public static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("expenses.v1.ledger") { db in
            try db.execute(sql: """
                CREATE TABLE expense (
                    id TEXT PRIMARY KEY NOT NULL,
                    description TEXT NOT NULL CHECK (length(trim(description)) > 0),
                    amount INTEGER NOT NULL CHECK (amount > 0),
                    currency TEXT NOT NULL CHECK (length(currency) = 3),
                    day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
                    category TEXT NOT NULL,
                    split_mode TEXT NOT NULL,
                    created_by TEXT NOT NULL,
                    created_at REAL NOT NULL
                ) STRICT;

                CREATE TABLE expense_payer (
                    expense_id TEXT NOT NULL REFERENCES expense(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    user_id TEXT NOT NULL,
                    amount INTEGER NOT NULL CHECK (amount > 0),
                    PRIMARY KEY (expense_id, position),
                    UNIQUE (expense_id, user_id)
                ) STRICT, WITHOUT ROWID;

                CREATE TABLE expense_part (
                    expense_id TEXT NOT NULL REFERENCES expense(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    user_id TEXT NOT NULL,
                    amount INTEGER NOT NULL CHECK (amount >= 0),
                    rule_value INTEGER,
                    PRIMARY KEY (expense_id, position),
                    UNIQUE (expense_id, user_id)
                ) STRICT, WITHOUT ROWID;

                CREATE INDEX expense_part_user ON expense_part(user_id);

                CREATE TABLE settlement (
                    id TEXT PRIMARY KEY NOT NULL,
                    from_user TEXT NOT NULL,
                    to_user TEXT NOT NULL CHECK (to_user <> from_user),
                    amount INTEGER NOT NULL CHECK (amount > 0),
                    currency TEXT NOT NULL CHECK (length(currency) = 3),
                    day TEXT NOT NULL,
                    created_by TEXT NOT NULL,
                    created_at REAL NOT NULL
                ) STRICT;

                CREATE TABLE balance (
                    user_low TEXT NOT NULL,
                    user_high TEXT NOT NULL CHECK (user_low < user_high),
                    currency TEXT NOT NULL,
                    amount INTEGER NOT NULL CHECK (amount <> 0),
                    PRIMARY KEY (user_low, user_high, currency)
                ) STRICT, WITHOUT ROWID;

                CREATE INDEX balance_high ON balance(user_high);

                CREATE TABLE activity (
                    id TEXT PRIMARY KEY NOT NULL,
                    at REAL NOT NULL,
                    actor TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    summary TEXT NOT NULL
                ) STRICT;

                CREATE TABLE activity_person (
                    user_id TEXT NOT NULL,
                    at REAL NOT NULL,
                    activity_id TEXT NOT NULL REFERENCES activity(id) ON DELETE CASCADE,
                    PRIMARY KEY (user_id, at, activity_id)
                ) STRICT, WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("expenses.v2.lists-by-person") { db in
            try db.execute(sql: """
                CREATE INDEX expense_payer_user ON expense_payer(user_id);
                CREATE INDEX settlement_from ON settlement(from_user);
                CREATE INDEX settlement_to ON settlement(to_user);
                """)
        }
        // Fewer trees for each write to touch: an expense's payers and parts become one row per
        // person; the expense is kept by its id alone (WITHOUT ROWID); activity is numbered in
        // the order it was written, and each person's list refers to that number. Adding an
        // expense wrote about 22 pages of log before, 13 after.
        migrator.registerMigration("expenses.v3.fewer-trees") { db in
            try db.execute(sql: """
                ALTER TABLE expense RENAME TO expense_v2;
                ALTER TABLE activity RENAME TO activity_v2;
                ALTER TABLE activity_person RENAME TO activity_person_v2;

                CREATE TABLE expense (
                    id TEXT PRIMARY KEY NOT NULL,
                    description TEXT NOT NULL CHECK (length(trim(description)) > 0),
                    amount INTEGER NOT NULL CHECK (amount > 0),
                    currency TEXT NOT NULL CHECK (length(currency) = 3),
                    day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
                    category TEXT NOT NULL,
                    split_mode TEXT NOT NULL,
                    created_by TEXT NOT NULL,
                    created_at REAL NOT NULL
                ) STRICT, WITHOUT ROWID;
                INSERT INTO expense SELECT id, description, amount, currency, day, category, split_mode, created_by, created_at
                    FROM expense_v2;

                -- Who is in an expense: what they paid (with the payer's place in the list) and their
                -- part (with the part's place and what the rule gave them).
                CREATE TABLE expense_person (
                    expense_id TEXT NOT NULL REFERENCES expense(id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL,
                    paid INTEGER CHECK (paid > 0),
                    paid_position INTEGER CHECK ((paid IS NULL) = (paid_position IS NULL)),
                    part INTEGER CHECK (part >= 0),
                    part_position INTEGER CHECK ((part IS NULL) = (part_position IS NULL)),
                    rule_value INTEGER,
                    CHECK (paid IS NOT NULL OR part IS NOT NULL),
                    PRIMARY KEY (expense_id, user_id)
                ) STRICT, WITHOUT ROWID;
                INSERT INTO expense_person (expense_id, user_id, part, part_position, rule_value)
                    SELECT expense_id, user_id, amount, position, rule_value FROM expense_part;
                INSERT INTO expense_person (expense_id, user_id, paid, paid_position)
                    SELECT expense_id, user_id, amount, position FROM expense_payer WHERE true
                    ON CONFLICT (expense_id, user_id) DO UPDATE SET paid = excluded.paid, paid_position = excluded.paid_position;

                CREATE TABLE activity (
                    seq INTEGER PRIMARY KEY,
                    id TEXT NOT NULL,
                    at REAL NOT NULL,
                    actor TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    summary TEXT NOT NULL
                ) STRICT;
                INSERT INTO activity (seq, id, at, actor, kind, subject, summary)
                    SELECT rowid, id, at, actor, kind, subject, summary FROM activity_v2 ORDER BY rowid;

                CREATE TABLE activity_person (
                    user_id TEXT NOT NULL,
                    at REAL NOT NULL,
                    seq INTEGER NOT NULL REFERENCES activity(seq) ON DELETE CASCADE,
                    PRIMARY KEY (user_id, at, seq)
                ) STRICT, WITHOUT ROWID;
                INSERT INTO activity_person (user_id, at, seq)
                    SELECT person.user_id, person.at, activity_v2.rowid
                    FROM activity_person_v2 AS person JOIN activity_v2 ON activity_v2.id = person.activity_id;

                DROP TABLE expense_payer;
                DROP TABLE expense_part;
                DROP TABLE activity_person_v2;
                DROP TABLE activity_v2;
                DROP TABLE expense_v2;

                CREATE INDEX expense_person_user ON expense_person(user_id);
                """)
        }
        // Each person's expenses in the order lists show them: the expense's day and time of
        // writing are copied into its people's rows, and their index is ordered by them, so a
        // page of someone's expenses (or of the ones two people share) is read in order from
        // the index, without sorting every expense they are in.
        migrator.registerMigration("expenses.v4.people-by-day") { db in
            try db.execute(sql: """
                ALTER TABLE expense_person RENAME TO expense_person_v3;
                DROP INDEX expense_person_user;

                CREATE TABLE expense_person (
                    expense_id TEXT NOT NULL REFERENCES expense(id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL,
                    day TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    paid INTEGER CHECK (paid > 0),
                    paid_position INTEGER CHECK ((paid IS NULL) = (paid_position IS NULL)),
                    part INTEGER CHECK (part >= 0),
                    part_position INTEGER CHECK ((part IS NULL) = (part_position IS NULL)),
                    rule_value INTEGER,
                    CHECK (paid IS NOT NULL OR part IS NOT NULL),
                    PRIMARY KEY (expense_id, user_id)
                ) STRICT, WITHOUT ROWID;
                INSERT INTO expense_person (expense_id, user_id, day, created_at, paid, paid_position, part, part_position, rule_value)
                    SELECT person.expense_id, person.user_id, expense.day, expense.created_at,
                           person.paid, person.paid_position, person.part, person.part_position, person.rule_value
                    FROM expense_person_v3 AS person JOIN expense ON expense.id = person.expense_id;
                DROP TABLE expense_person_v3;

                CREATE INDEX expense_person_by_day ON expense_person(user_id, day DESC, created_at DESC);
                """)
        }
        // An expense may carry a note (where, what for). Its length is the domain's rule, in
        // characters as people see them; SQLite would count code points.
        migrator.registerMigration("expenses.v5.notes") { db in
            try db.execute(sql: """
                ALTER TABLE expense ADD COLUMN note TEXT CHECK (note IS NULL OR length(note) > 0);
                """)
        }
        // Who an activity line concerns, found by the line: without it each line of a page of
        // activity scanned every person's list (about 100 ms a page at 100,000 expenses).
        migrator.registerMigration("expenses.v6.activity-people-by-line") { db in
            try db.execute(sql: "CREATE INDEX activity_person_by_seq ON activity_person(seq)")
        }
        // Deleting an expense can be undone: it moves here with its people, out of every list,
        // balance and recount, and a restore moves it back as it was.
        migrator.registerMigration("expenses.v7.deleted-expenses") { db in
            try db.execute(sql: """
                CREATE TABLE deleted_expense (
                    id TEXT PRIMARY KEY NOT NULL,
                    description TEXT NOT NULL,
                    amount INTEGER NOT NULL,
                    currency TEXT NOT NULL,
                    day TEXT NOT NULL,
                    category TEXT NOT NULL,
                    split_mode TEXT NOT NULL,
                    created_by TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    note TEXT,
                    deleted_by TEXT NOT NULL,
                    deleted_at REAL NOT NULL
                ) STRICT, WITHOUT ROWID;

                CREATE TABLE deleted_expense_person (
                    expense_id TEXT NOT NULL REFERENCES deleted_expense(id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL,
                    deleted_at REAL NOT NULL,
                    paid INTEGER,
                    paid_position INTEGER,
                    part INTEGER,
                    part_position INTEGER,
                    rule_value INTEGER,
                    PRIMARY KEY (expense_id, user_id)
                ) STRICT, WITHOUT ROWID;

                CREATE INDEX deleted_expense_person_by_time ON deleted_expense_person(user_id, deleted_at DESC);
                """)
        }
        // A payment beyond what the payer owes the payee may clear what they owe each other
        // through a third person: the balances it moved are kept with it, so undoing it and
        // recounting the ledger move the same ones.
        migrator.registerMigration("expenses.v8.settlement-legs") { db in
            try db.execute(sql: """
                CREATE TABLE settlement_leg (
                    settlement_id TEXT NOT NULL REFERENCES settlement(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    creditor TEXT NOT NULL,
                    debtor TEXT NOT NULL CHECK (debtor <> creditor),
                    amount INTEGER NOT NULL CHECK (amount > 0),
                    PRIMARY KEY (settlement_id, position)
                ) STRICT, WITHOUT ROWID;
                """)
        }
        // The pairs an expense's balances move follow the places of its payers and parts, no
        // longer their user ids (which a contact linked to an account changes). That order
        // matters only where at least two people come out ahead and two behind; those expenses,
        // written when the ids decided, have their places numbered in id order, so each keeps the
        // pairs it moved. (Parts are read as kept: ties need nothing.)
        migrator.registerMigration("expenses.v9.places-in-id-order") { db in
            for table in ["expense_person", "deleted_expense_person"] {
                try db.execute(sql: """
                    CREATE TEMPORARY TABLE mixed AS
                        SELECT expense_id FROM \(table) GROUP BY expense_id
                        HAVING sum(coalesce(paid, 0) > coalesce(part, 0)) >= 2 AND sum(coalesce(paid, 0) < coalesce(part, 0)) >= 2;
                    UPDATE \(table) SET paid_position = (
                        SELECT count(*) FROM \(table) AS other
                        WHERE other.expense_id = \(table).expense_id AND other.paid IS NOT NULL AND other.user_id < \(table).user_id
                    ) WHERE paid IS NOT NULL AND expense_id IN (SELECT expense_id FROM mixed);
                    UPDATE \(table) SET part_position = (
                        SELECT count(*) FROM \(table) AS other
                        WHERE other.expense_id = \(table).expense_id AND other.part IS NOT NULL AND other.user_id < \(table).user_id
                    ) WHERE part IS NOT NULL AND expense_id IN (SELECT expense_id FROM mixed);
                    DROP TABLE mixed;
                    """)
            }
        }
        // Each expense counts its changes: an edit or a delete says which it was made from.
        migrator.registerMigration("expenses.v10.versions") { db in
            try db.execute(sql: """
                ALTER TABLE expense ADD COLUMN version INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1);
                ALTER TABLE deleted_expense ADD COLUMN version INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1);
                """)
        }
        migrator.registerMigration("expenses.v11.kept-changes") { db in
            try db.execute(sql: """
                -- Each change to an expense keeps the expense as it left it, whole; its history is
                -- its activity lines, found by the expense's id.
                ALTER TABLE activity ADD COLUMN snapshot TEXT;
                CREATE INDEX activity_subject ON activity(subject, seq);
                """)
        }
        // Expenses and payments may be filed under a group (the Groups area keeps the groups):
        // each pair's balance within a group is kept beside its overall balance, which includes it.
        migrator.registerMigration("expenses.v12.groups") { db in
            try db.execute(sql: """
                ALTER TABLE expense ADD COLUMN group_id TEXT;
                ALTER TABLE deleted_expense ADD COLUMN group_id TEXT;
                ALTER TABLE settlement ADD COLUMN group_id TEXT;
                CREATE INDEX expense_by_group ON expense(group_id, day DESC, created_at DESC, id) WHERE group_id IS NOT NULL;
                CREATE INDEX settlement_by_group ON settlement(group_id, day DESC, created_at DESC, id) WHERE group_id IS NOT NULL;

                CREATE TABLE group_balance (
                    group_id TEXT NOT NULL,
                    user_low TEXT NOT NULL,
                    user_high TEXT NOT NULL CHECK (user_low < user_high),
                    currency TEXT NOT NULL,
                    amount INTEGER NOT NULL CHECK (amount <> 0),
                    PRIMARY KEY (group_id, user_low, user_high, currency)
                ) STRICT, WITHOUT ROWID;
                CREATE INDEX group_balance_low ON group_balance(user_low);
                CREATE INDEX group_balance_high ON group_balance(user_high);
                """)
        }
        // What each user imported from files, by each entry's key: importing again adds it once.
        migrator.registerMigration("expenses.v13.imports") { db in
            try db.execute(sql: """
                CREATE TABLE imported_entry (
                    user_id TEXT NOT NULL,
                    key TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    imported_at REAL NOT NULL,
                    PRIMARY KEY (user_id, key)
                ) STRICT, WITHOUT ROWID;
                """)
        }
        // A conversion is a payment its payer makes by owing the payee its worth in another
        // currency: that side and the rate it was worked out at are kept with it, all or none.
        migrator.registerMigration("expenses.v14.conversions") { db in
            try db.execute(sql: """
                ALTER TABLE settlement ADD COLUMN converted_amount INTEGER CHECK (converted_amount > 0);
                ALTER TABLE settlement ADD COLUMN converted_currency TEXT;
                ALTER TABLE settlement ADD COLUMN rate_base TEXT;
                ALTER TABLE settlement ADD COLUMN rate TEXT;
                ALTER TABLE settlement ADD COLUMN rate_source TEXT;
                """)
        }
        // Each expense's thread: kept by the expense's id, so a deleted expense keeps its
        // comments and a restored one has them back.
        migrator.registerMigration("expenses.v15.comments") { db in
            try db.execute(sql: """
                CREATE TABLE expense_comment (
                    id TEXT PRIMARY KEY NOT NULL,
                    expense_id TEXT NOT NULL,
                    author TEXT NOT NULL,
                    at REAL NOT NULL,
                    text TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 1000)
                ) STRICT;
                CREATE INDEX expense_comment_thread ON expense_comment(expense_id, at, id);
                CREATE INDEX expense_comment_author ON expense_comment(author);
                """)
        }
        // Recurring expenses: each series keeps its first expense as the template, and each
        // occurrence claims its day once (the primary key), whichever process gets there first.
        migrator.registerMigration("expenses.v16.series") { db in
            try db.execute(sql: """
                CREATE TABLE expense_series (
                    id TEXT PRIMARY KEY NOT NULL,
                    created_by TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    template TEXT NOT NULL,
                    frequency TEXT NOT NULL,
                    start TEXT NOT NULL,
                    end_day TEXT,
                    end_count INTEGER CHECK (end_count > 0),
                    version INTEGER NOT NULL CHECK (version > 0)
                ) STRICT;
                CREATE TABLE series_person (
                    series_id TEXT NOT NULL REFERENCES expense_series(id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL,
                    PRIMARY KEY (user_id, series_id)
                ) STRICT, WITHOUT ROWID;
                CREATE TABLE series_occurrence (
                    series_id TEXT NOT NULL REFERENCES expense_series(id) ON DELETE CASCADE,
                    day TEXT NOT NULL,
                    expense_id TEXT NOT NULL,
                    PRIMARY KEY (series_id, day)
                ) STRICT, WITHOUT ROWID;
                CREATE INDEX series_occurrence_expense ON series_occurrence(expense_id);
                """)
        }
    }
}
