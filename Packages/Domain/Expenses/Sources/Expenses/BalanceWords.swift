import Primitives

/// How a balance reads, seen from the user: positive when the other person owes the user. One
/// wording for every screen that shows balances (the Friends tab, a preview, settling up, the
/// Expenses tab).
public enum BalanceWords {
    /// The amount without its sign: what is owed, whichever way.
    public static func owed(_ balance: Money) -> Money {
        balance.isNegative ? (try? balance.negated()) ?? balance : balance
    }

    /// After the other person's name in a list: `owes you 12.50 EUR`, `you owe 3.00 USD`.
    public static func phrase(_ balance: Money) -> String {
        balance.isNegative ? "you owe \(owed(balance))" : "owes you \(balance)"
    }

    /// `Bob Stone owes you 12.50 EUR.`, `You owe Bob Stone 3.00 USD.`, or, at zero,
    /// `You and Bob Stone are settled up.`
    public static func sentence(_ balance: Money, name: String) -> String {
        if balance.isZero { return "You and \(name) are settled up." }
        return balance.isNegative ? "You owe \(name) \(owed(balance))." : "\(name) owes you \(balance)."
    }

    /// Where someone stands in a group, all their balances there summed in one currency:
    /// `you are owed 20.00 EUR`, `you owe 5.00 EUR`, or for a member `is owed 20.00 EUR`,
    /// `owes 5.00 EUR`; `settled up` at zero.
    public static func standing(_ net: Money, you: Bool) -> String {
        if net.isZero { return "settled up" }
        if net.isNegative { return you ? "you owe \(owed(net))" : "owes \(owed(net))" }
        return you ? "you are owed \(net)" : "is owed \(net)"
    }

    /// What everyone comes to in one currency (a sum of many balances, in 128 bits):
    /// `In all, you are owed 37.00 EUR.` or `In all, you owe 6.00 USD.`; nil at zero.
    public static func total(_ units: Int128, in currency: Currency) -> String? {
        guard units != 0 else { return nil }
        let amount = Int64(exactly: units.magnitude).map { Money(minorUnits: $0, currency: currency).description }
            ?? "more than \(LedgerLimits.largest(currency))"
        return units > 0 ? "In all, you are owed \(amount)." : "In all, you owe \(amount)."
    }
}

/// How a line of activity reads, after its day or time: one wording for the Expenses tab and
/// `flows activity`.
public enum ActivityWords {
    /// `You added Dinner, 30.00 EUR.`, or for a payment taken back, whose summary says so,
    /// `You: Payment taken back, 12.00 EUR.`; `who` is the actor as the reader knows them.
    public static func sentence(_ activity: Activity, who: String) -> String {
        let what = switch activity.kind {
        case .added: "added"
        case .edited: "edited"
        case .deleted: "deleted"
        case .settled: "recorded"
        case .restored: "restored"
        case .unsettled: ""
        case .commented: "commented on"
        }
        return what.isEmpty ? "\(who): \(activity.summary)." : "\(who) \(what) \(activity.summary)."
    }
}

extension Settlement {
    /// The payment in words from `user`'s side, `name` giving everyone else's name: `You paid
    /// Bob Stone 10.00 EUR`, `Bob Stone paid you 10.00 EUR`, `Ann Lee paid Bob Stone 10.00 EUR`;
    /// a conversion, `22500 JPY you owed Bob Stone became 128.07 EUR at 1 EUR = 175.68 JPY`.
    public func sentence(for user: UserID, name: (UserID) -> String) -> String {
        let (payer, payee) = (from == user ? "you" : name(from), to == user ? "you" : name(to))
        let line = if let conversion {
            "\(amount) \(payer) owed \(payee) became \(conversion.amount) at \(conversion.rate)"
        } else {
            "\(payer) paid \(payee) \(amount)"
        }
        return line.prefix(1).uppercased() + line.dropFirst()
    }
}
