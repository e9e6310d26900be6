import FlowKit
import Primitives

/// Draws settling up: whom with, then the payment (starting at the suggested payment or the
/// whole balance), then a question when it is more than either. Its identifiers are the contract scripts use.
struct SettleUpView: View {
    static let screenID: ScreenID = "settle-up"
    static let person: ElementID = "person"
    static let currency: ElementID = "currency"
    static let amount: ElementID = "amount"
    static let day: ElementID = "day"
    static let record: ElementID = "record"
    static let recordAnyway: ElementID = "record-anyway"
    static let into: ElementID = "into"
    static let rate: ElementID = "rate"
    enum Tap: String, ScreenTap {
        /// Settle the balance in another currency: the conversion's screen.
        case convert
        case convertNow = "convert-now", next
    }

    func screen(for state: SettleUpViewState) -> Screen {
        let status = state.phase.status(busy: "Recording") ?? state.notice.map(ScreenStatus.notice)
        switch state.step {
        case .pick:
            guard !state.people.isEmpty else {
                return Screen(
                    id: Self.screenID, title: state.title, text: state.isLoaded ? ["You are settled up with everyone: nothing to pay or to receive."] : [],
                    actions: [Action(id: .cancel, label: "Back", role: .cancel)], status: status
                )
            }
            let options = state.people.map { Choice(id: $0.id, label: $0.name, detail: $0.phrases) }
            return Screen(
                id: Self.screenID, title: state.title, text: ["Whom with? Everyone you have an open balance or a suggested payment with."],
                fields: [Field(id: Self.person, label: "With", input: .choice(options, selected: state.person))],
                actions: [Action(Tap.next, label: "Next", role: .primary), .cancel],
                status: status
            )
        case .form:
            guard let person = state.chosen, let currency = state.currency else { return Screen(id: Self.screenID, title: state.title) }
            var fields: [Field] = []
            if person.currencies.count > 1 {
                let options = person.currencies.map { Choice(id: ElementID($0.code), label: $0.code) }
                fields.append(Field(id: Self.currency, label: "Currency", input: .choice(options, selected: ElementID(currency.code))))
            }
            let paying = state.settling?.isNegative ?? true
            fields += [
                Field(id: Self.amount, label: paying ? "You pay" : "\(person.name) pays you", input: .money(state.amount, currency: currency.code, decimals: currency.decimals),
                      hint: state.amountHint, error: state.amountError),
                Field(id: Self.day, label: "Day", input: .day(state.day, resolved: state.dayRead), hint: "yyyy-MM-dd, today, yesterday or a weekday", error: state.dayError),
            ]
            var actions = [Action(id: Self.record, label: "Record the payment", role: .primary)]
            if !state.targets.isEmpty {
                actions.append(Action(Tap.convert, label: "Settle \(currency.code) in another currency"))
            }
            return Screen(
                id: Self.screenID, title: "Settle up with \(person.name)",
                text: person.sentences + person.groupParts,
                fields: fields,
                actions: actions + [Action(id: .back, label: "Back"), .cancel],
                status: status
            )
        case .convert:
            guard let person = state.chosen, let currency = state.currency, let converting = state.converting, let balance = state.convertingSentence
            else { return Screen(id: Self.screenID, title: state.title) }
            let other = converting.base == currency ? converting.into : currency
            let hint = if let reference = converting.references[converting.into] {
                converting.reference == nil
                    ? "the rate you agreed; \(reference.source)'s reference rate is 1 \(reference.base.code) = \(reference.rate) \(other.code)"
                    : "\(reference.source)'s reference rate; or type the rate you agreed"
            } else {
                "no reference rate for this day: type the rate you agreed"
            }
            let options = converting.targets.map { Choice(id: ElementID($0.code), label: $0.code) }
            return Screen(
                id: Self.screenID, title: "Settle \(currency.code) with \(person.name) in another currency",
                text: [
                    balance,
                    "It becomes a balance in the currency you choose, at the rate below; you can pay it next, or later.",
                ] + state.conversionPreview,
                fields: [
                    Field(id: Self.into, label: "Into", input: .choice(options, selected: ElementID(converting.into.code))),
                    Field(id: Self.rate, label: "1 \(converting.base.code) in \(other.code)", input: .text(converting.rate), hint: hint, error: converting.rateError),
                ],
                actions: [
                    Action(Tap.convertNow, label: "Convert", role: .primary),
                    Action(id: .back, label: "Back"),
                    .cancel,
                ],
                status: status
            )
        case .more(let question):
            return Screen(
                id: Self.screenID, title: state.title, text: [question, "Record it anyway?"],
                actions: [
                    Action(id: Self.recordAnyway, label: "Record it anyway", role: .primary),
                    .back,
                ],
                status: status
            )
        }
    }
}
