/// The queries the lists and balances read by: kept apart so that a test can ask PostgreSQL how
/// it runs them (by index, never by scanning a table), on a large ledger.
enum ExpensesQuery {
    /// A payment's columns, then its legs as three arrays in their order (NULL when it has none).
    static let settlementSelect = """
        SELECT s.id, s.from_user, s.to_user, s.amount, s.currency, s.day, s.created_by, s.created_at,
               legs.creditors, legs.debtors, legs.amounts, s.group_id,
               s.converted_amount, s.converted_currency, s.rate_base, s.rate, s.rate_source
        FROM settlement AS s
        CROSS JOIN LATERAL (
            SELECT array_agg(creditor ORDER BY position) AS creditors, array_agg(debtor ORDER BY position) AS debtors,
                   array_agg(amount ORDER BY position) AS amounts
            FROM settlement_leg WHERE settlement_id = s.id
        ) AS legs
        """

    /// The ids of a user's expenses, a page, newest first: one range of their index by day.
    static let expensesOfUser = """
        SELECT expense_id FROM expense_person WHERE user_id = $1
        ORDER BY day DESC, created_at DESC, expense_id
        LIMIT $2 OFFSET $3
        """

    /// The ids of a user's deleted expenses, a page, the most recently deleted first.
    static let deletedExpensesOfUser = """
        SELECT expense_id FROM deleted_expense_person WHERE user_id = $1
        ORDER BY deleted_at DESC, expense_id
        LIMIT $2 OFFSET $3
        """

    /// The other people in a user's newest expenses, the most recent first.
    static let recentPeople = """
        SELECT other.user_id FROM (
            SELECT expense_id, row_number() OVER (ORDER BY day DESC, created_at DESC, expense_id) AS place
            FROM expense_person WHERE user_id = $1
            ORDER BY day DESC, created_at DESC, expense_id LIMIT $2
        ) AS recent
        JOIN expense_person AS other ON other.expense_id = recent.expense_id AND other.user_id <> $1
        GROUP BY other.user_id
        ORDER BY min(recent.place), other.user_id
        """

    /// A page of the expenses two people share: one's list walked, the other's row probed by key.
    static let sharedExpenses = """
        SELECT walked.expense_id FROM expense_person AS walked
        JOIN expense_person AS probed ON probed.expense_id = walked.expense_id AND probed.user_id = $1
        WHERE walked.user_id = $2
        ORDER BY walked.day DESC, walked.created_at DESC, walked.expense_id
        LIMIT $3 OFFSET $4
        """

    /// A page of the payments a user made or received, newest first: the first `offset + limit`
    /// of each of their two index ranges (as payer, as payee), merged; then that page's legs.
    static let settlementsOfUser = """
        WITH page AS (
            SELECT id FROM (
                (SELECT id, day, created_at FROM settlement WHERE from_user = $1 ORDER BY day DESC, created_at DESC, id LIMIT $2 + $3)
                UNION ALL
                (SELECT id, day, created_at FROM settlement WHERE to_user = $1 ORDER BY day DESC, created_at DESC, id LIMIT $2 + $3)
            ) AS mine
            ORDER BY day DESC, created_at DESC, id
            LIMIT $2 OFFSET $3
        )
        \(settlementSelect)
        JOIN page ON page.id = s.id
        ORDER BY s.day DESC, s.created_at DESC, s.id
        """

    /// A user's balances: two index ranges (as the low side, as the high side).
    static let balancesOfUser = """
        SELECT user_low, user_high, currency, amount FROM (
            SELECT user_low, user_high, currency, amount FROM balance WHERE user_low = $1
            UNION ALL
            SELECT user_low, user_high, currency, amount FROM balance WHERE user_high = $1
        ) AS pairs
        ORDER BY user_low <> $1, user_high, user_low, currency
        """

    /// A page of a user's activity, newest first, each line with its people.
    static let activityPage = """
        SELECT activity.id, activity.at, activity.actor, activity.kind, activity.subject, activity.summary,
               (SELECT array_agg(person.user_id ORDER BY person.user_id) FROM activity_person AS person WHERE person.seq = activity.seq)
        FROM activity_person
        JOIN activity ON activity.seq = activity_person.seq
        WHERE activity_person.user_id = $1
        ORDER BY activity_person.at DESC, activity_person.seq DESC
        LIMIT $2 OFFSET $3
        """

    /// A user's parts in a range of days, summed by category, month and currency: one range of
    /// their index by day (each person's row carries its expense's category and currency).
    static let spending = """
        SELECT category, substr(day, 1, 7) AS month, currency, sum(part)::bigint
        FROM expense_person
        WHERE user_id = $1 AND day BETWEEN $2 AND $3 AND part > 0
        GROUP BY category, month, currency
        """

    /// The ids of a group's expenses, a page, newest first: one range of its index by day.
    static let expensesOfGroup = """
        SELECT id FROM expense WHERE group_id = $1
        ORDER BY day DESC, created_at DESC, id
        LIMIT $2 OFFSET $3
        """

    /// A page of a group's payments, newest first.
    static let settlementsOfGroup = """
        WITH page AS (
            SELECT id FROM settlement WHERE group_id = $1 ORDER BY day DESC, created_at DESC, id LIMIT $2 OFFSET $3
        )
        \(settlementSelect)
        JOIN page ON page.id = s.id
        ORDER BY s.day DESC, s.created_at DESC, s.id
        """

    /// A group's balances, by index.
    static let balancesOfGroup = """
        SELECT group_id, user_low, user_high, currency, amount FROM group_balance WHERE group_id = $1
        ORDER BY user_low, user_high, currency
        """

    /// A user's balances within groups: two index ranges (as the low side, as the high side).
    static let groupBalancesOfUser = """
        SELECT group_id, user_low, user_high, currency, amount FROM (
            SELECT group_id, user_low, user_high, currency, amount FROM group_balance WHERE user_low = $1
            UNION ALL
            SELECT group_id, user_low, user_high, currency, amount FROM group_balance WHERE user_high = $1
        ) AS pairs
        ORDER BY group_id, user_low, user_high, currency
        """
}
