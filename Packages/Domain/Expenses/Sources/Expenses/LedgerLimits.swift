import Primitives

/// The bound on amounts and balances, far beyond any real expense, that keeps the ledger's
/// arithmetic exact.
///
/// An amount (of an expense, a payment, a part or a settlement) and the balance between any two
/// people stay within ±``maximumAmount`` minor units, so adding a change to a balance can never
/// overflow 64 bits. A write that would go beyond it is refused with a message and changes
/// nothing. A person's position (the sum of their balances with everyone) is summed in 128 bits.
public enum LedgerLimits {
    /// 10^15 minor units: 10,000,000,000,000.00 EUR.
    public static let maximumAmount: Int64 = 1_000_000_000_000_000

    /// The largest amount in a currency, for messages: `10000000000000.00 EUR`.
    public static func largest(_ currency: Currency) -> Money {
        Money(minorUnits: maximumAmount, currency: currency)
    }
}
