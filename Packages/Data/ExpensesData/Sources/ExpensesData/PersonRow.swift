extension StoredExpense {
    /// One person's row of an expense, as both stores keep it: what they paid and their part,
    /// each with its place in its list.
    public struct PersonRow: Equatable, Sendable {
        public let user: String
        public var paid: Int64?
        public var paidPosition: Int?
        public var part: Int64?
        public var partPosition: Int?
        public var ruleValue: Int64?

        init(user: String) {
            self.user = user
        }
    }

    /// The expense's people in the order they first appear, payers first. A payer listed twice,
    /// or a person with two parts, is refused (``ExpensesDataError/refused(_:)``).
    public func personRows() throws -> [PersonRow] {
        var rows: [PersonRow] = []
        var index: [String: Int] = [:]
        func row(_ user: String) -> Int {
            if let found = index[user] { return found }
            rows.append(PersonRow(user: user))
            index[user] = rows.count - 1
            return rows.count - 1
        }
        for (position, payer) in payers.enumerated() {
            let at = row(payer.user)
            guard rows[at].paid == nil else { throw ExpensesDataError.refused("each payer appears once") }
            rows[at].paid = payer.amount
            rows[at].paidPosition = position
        }
        for (position, part) in parts.enumerated() {
            let at = row(part.user)
            guard rows[at].part == nil else { throw ExpensesDataError.refused("each person has one part") }
            rows[at].part = part.amount
            rows[at].partPosition = position
            rows[at].ruleValue = part.ruleValue
        }
        return rows
    }
}
