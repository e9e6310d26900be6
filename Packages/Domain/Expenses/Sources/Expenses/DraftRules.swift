import Primitives

/// The rules a draft must keep, one field at a time: what ``Expense/init(id:draft:)`` checks, for
/// a form that asks about the fields it has as they are answered. Each rule and its message are
/// written here once; a form maps the fields to its own controls.
extension ExpenseDraft {
    /// What a rule is about.
    public enum Field: Hashable, Sendable, CaseIterable {
        case description
        case amount
        case note
        /// Who shares it.
        case participants
        /// Who paid.
        case payers
        /// What each payer paid.
        case payments
        /// The parts the rule gives.
        case split
    }

    /// Every problem of the draft, under the field it is about; empty when it can be recorded.
    /// (Who may record it is the service's to say: ``ExpensesError/notInExpense`` unless the
    /// writer is in it, ``includes(_:participants:payers:)``.)
    public var problems: [Field: ExpenseProblem] {
        var found: [Field: ExpenseProblem] = [:]
        found[.description] = Self.problem(description: description)
        found[.amount] = Self.problem(amount: amount)
        found[.note] = Self.problem(note: note)
        found[.participants] = Self.problem(participants: participants) ?? Self.problem(people: participants, payers: payers.map(\.user))
        found[.payers] = Self.problem(payers: payers.map(\.user))
        if found[.payers] == nil, found[.amount] == nil { found[.payments] = Self.problem(payments: payers, of: amount) }
        if found[.amount] == nil, found[.participants] == nil {
            found[.split] = Self.problem(split: rule, of: amount, among: participants)
        }
        return found
    }

    /// A description: 1 to ``Expense/descriptionLimit`` characters once trimmed, none of them
    /// control characters or invisible ones (a direction mark can draw "01" as "10").
    public static func problem(description: String) -> ExpenseProblem? {
        problem(description: description, asRecorded: false)
    }

    /// `asRecorded`: the text of an expense already kept, which a rule added since (no invisible
    /// characters) does not make unreadable.
    static func problem(description: String, asRecorded: Bool) -> ExpenseProblem? {
        let trimmed = description.trimmingWhitespace()
        guard (1...Expense.descriptionLimit).contains(trimmed.count) else { return .description }
        guard !trimmed.containsControlCharacters else { return .descriptionControlCharacters }
        return !asRecorded && trimmed.containsInvisibleCharacters ? .descriptionInvisibleCharacters : nil
    }

    /// An amount: more than zero, and at most the ledger's largest.
    public static func problem(amount: Money) -> ExpenseProblem? {
        guard amount.isPositive else { return .split(.amountNotPositive) }
        return amount.minorUnits <= LedgerLimits.maximumAmount ? nil : .amountTooLarge(amount.currency)
    }

    /// A note: at most ``Expense/noteLimit`` characters once trimmed, without control or
    /// invisible characters.
    public static func problem(note: String?) -> ExpenseProblem? {
        problem(note: note, asRecorded: false)
    }

    static func problem(note: String?, asRecorded: Bool) -> ExpenseProblem? {
        let trimmed = note?.trimmingWhitespace() ?? ""
        let readable = !trimmed.containsControlCharacters && (asRecorded || !trimmed.containsInvisibleCharacters)
        return trimmed.count <= Expense.noteLimit && readable ? nil : .note
    }

    /// Who paid: someone, each once.
    public static func problem(payers: [UserID]) -> ExpenseProblem? {
        guard !payers.isEmpty else { return .noPayer }
        return Set(payers).count == payers.count ? nil : .duplicatePayer
    }

    /// What one payer paid: more than zero, in the expense's currency, at most the ledger's largest.
    public static func problem(payment: Money, of amount: Money) -> ExpenseProblem? {
        guard payment.currency == amount.currency else { return .payerCurrency }
        guard payment.isPositive else { return .payerAmount }
        return payment.minorUnits <= LedgerLimits.maximumAmount ? nil : .amountTooLarge(amount.currency)
    }

    /// What each payer paid (``problem(payment:of:)``), adding up to the amount.
    public static func problem(payments payers: [Payer], of amount: Money) -> ExpenseProblem? {
        var paid: Int64 = 0
        for payer in payers {
            if let problem = problem(payment: payer.amount, of: amount) { return problem }
            let (sum, overflow) = paid.addingReportingOverflow(payer.amount.minorUnits)
            guard !overflow else { return .paymentsDoNotAddUp(paid: nil, amount: amount) }
            paid = sum
        }
        guard paid == amount.minorUnits else {
            return .paymentsDoNotAddUp(paid: Money(minorUnits: paid, currency: amount.currency), amount: amount)
        }
        return nil
    }

    /// Who shares it: someone.
    public static func problem(participants: [UserID]) -> ExpenseProblem? {
        participants.isEmpty ? .split(.noParticipants) : nil
    }

    /// Everyone in it, paying or sharing: at most ``Expense/peopleLimit``.
    public static func problem(people participants: [UserID], payers: [UserID]) -> ExpenseProblem? {
        // Counted without a set first: a draft of a million entries is refused at once.
        guard participants.count + payers.count > Expense.peopleLimit else { return nil }
        return Set(participants).union(payers).count > Expense.peopleLimit ? .tooManyPeople : nil
    }

    /// Whether `user` is among the people sharing or paying: only they may add an expense or
    /// change it (``Expense/people``, which the service checks).
    public static func includes(_ user: UserID, participants: [UserID], payers: [UserID]) -> Bool {
        participants.contains(user) || payers.contains(user)
    }

    /// The parts: what ``Split`` makes of the amount among the participants by the rule.
    public static func problem(split rule: SplitRule, of amount: Money, among participants: [UserID]) -> ExpenseProblem? {
        do throws(SplitProblem) {
            _ = try Split(amount: amount, participants: participants, rule: rule)
            return nil
        } catch {
            return .split(error)
        }
    }
}

extension SplitRule {
    /// What a form says when a percentage cannot be read.
    public static let percentageHint = "Enter a percentage from 0 to 100, like 50 or 33.33."

    /// A percentage as typed, in basis points: `33.33` is 3333, `50` is 5000; digits, then at most
    /// one point (or comma) and two digits. Nil for anything else, or above 100 %.
    public static func basisPoints(typed text: String) -> Int? {
        let trimmed = text.trimmingWhitespace()
        let parts = trimmed.split(separator: trimmed.contains(",") ? "," : ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts[0].count <= 3,
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              parts.count == 1 || (1...2).contains(parts[1].count),
              let whole = Int(parts[0])
        else { return nil }
        let fraction = parts.count == 2 ? String(parts[1]) + String(repeating: "0", count: 2 - parts[1].count) : "00"
        let points = whole * 100 + (Int(fraction) ?? 0)
        return points <= 10_000 ? points : nil
    }

    /// A share as typed: a whole number from 0 to ``Split/maximumShare``.
    public static func share(typed text: String) throws(SplitProblem) -> Int {
        let trimmed = text.trimmingWhitespace()
        guard trimmed.allSatisfy(\.isASCIIDigit), let value = Int(trimmed), value <= Split.maximumShare else { throw .shareTooLarge }
        return value
    }
}
