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
    }
}
