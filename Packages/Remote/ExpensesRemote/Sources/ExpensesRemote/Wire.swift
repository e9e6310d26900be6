import Expenses
import FlowsAPI
import Primitives

// Expenses' values in the contract's form, the same for the client here and for flows-server's
// answers: written once.

extension Components.Schemas.Money {
    public init(_ money: Money) {
        self.init(minorUnits: money.minorUnits, currency: money.currency.code)
    }
}

extension Components.Schemas.SplitRule {
    public init(_ rule: SplitRule) {
        switch rule {
        case .equal: self = .equal(.init(mode: .equal))
        case .exact(let amounts):
            self = .exact(.init(mode: .exact, amounts: .init(additionalProperties: Dictionary(uniqueKeysWithValues: amounts.map {
                ($0.key.rawValue, Components.Schemas.NonNegativeMoney(minorUnits: $0.value.minorUnits, currency: $0.value.currency.code))
            }))))
        case .percentages(let points):
            self = .percentages(.init(mode: .percentages, basisPoints: .init(additionalProperties: Dictionary(uniqueKeysWithValues: points.map {
                ($0.key.rawValue, Int32(clamping: $0.value))
            }))))
        case .shares(let shares):
            self = .shares(.init(mode: .shares, shares: .init(additionalProperties: Dictionary(uniqueKeysWithValues: shares.map {
                ($0.key.rawValue, Int32(clamping: $0.value))
            }))))
        }
    }
}
