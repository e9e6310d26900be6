import Expenses
import Interchange
import Primitives

/// A CSV cell as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break.
func csvCell(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// A text cell a spreadsheet will not run: one beginning with `=`, `+`, `-`, `@`, a tab or a
/// carriage return is written after an apostrophe, which spreadsheets show as text.
func safeCell(_ text: String) -> String {
    guard let first = text.first, "=+-@\t\r".contains(first) else { return csvCell(text) }
    return csvCell("'" + text)
}

/// An amount of minor units as a file writes it: `-3.32`, `1000`.
func amountText(_ units: Int64, _ currency: Currency) -> String {
    ExactAmount(minorUnits: units, of: currency).text(in: currency)
}

/// One row per expense (and per payment, as its payer paying the payee's part), with each
/// person's part in a column of their own: for a spreadsheet.
public enum SheetCSV {
    public static func write(_ sheet: Sheet) -> String {
        var lines = [(["Date", "Description", "Category", "Cost", "Currency", "Paid by"] + sheet.people.map(safeCell)).joined(separator: ",")]
        for entry in sheet.entries {
            let currency = entry.amount.currency
            var parts = Array(repeating: "", count: sheet.people.count)
            let payers: String
            var description = entry.description
            switch entry.movement {
            case .expense(let paid, let shares):
                payers = paid.list.map { "\(sheet.people[$0.person]) \(amountText($0.amount, currency))" }.joined(separator: "; ")
                for share in shares.list { parts[share.person] = amountText(share.amount, currency) }
            case .payment(let from, let to):
                payers = "\(sheet.people[from]) \(amountText(entry.amount.minorUnits, currency))"
                parts[to] = amountText(entry.amount.minorUnits, currency)
                description = "Payment to \(sheet.people[to])"
            }
            let category = entry.isPayment ? "payment" : entry.category.rawValue
            let row = [entry.day.description, safeCell(description), category, amountText(entry.amount.minorUnits, currency), currency.code, safeCell(payers)] + parts
            lines.append(row.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension SplitwiseCSV {
    /// Splitwise's own layout: each member's net per row, payments as `Payment`, and a
    /// `Total balance` row per currency (dated with the last row's day).
    public static func write(_ sheet: Sheet) -> String {
        var lines = [(fixedColumns + sheet.people).map(csvCell).joined(separator: ",")]
        var totals: [Currency: [Int64]] = [:]
        for entry in sheet.entries {
            let currency = entry.amount.currency
            var nets = Array(repeating: Int64(0), count: sheet.people.count)
            for (person, net) in entry.nets { nets[person] = net }
            totals[currency, default: Array(repeating: 0, count: sheet.people.count)] = zip(totals[currency] ?? nets.map { _ in 0 }, nets).map { $0 + $1 }
            let category = entry.isPayment ? "Payment" : splitwiseName(entry.category)
            let description = if case .payment(let from, let to) = entry.movement { "\(sheet.people[from]) paid \(sheet.people[to])" } else { entry.description }
            lines.append(([entry.day.description, csvCell(description), category, amountText(entry.amount.minorUnits, currency), currency.code]
                + nets.map { amountText($0, currency) }).joined(separator: ","))
        }
        lines.append("")
        let day = sheet.entries.last?.day.description ?? ""
        for (currency, sums) in totals.sorted(by: { $0.key.code < $1.key.code }) {
            lines.append(([day, "Total balance", " ", " ", currency.code] + sums.map { amountText($0, currency) }).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A Splitwise category that reads back as `category`.
    static func splitwiseName(_ category: Category) -> String {
        switch category {
        case .general: "General"
        case .food: "Food and drink"
        case .groceries: "Groceries"
        case .transport: "Transportation"
        case .housing: "Home"
        case .utilities: "Utilities"
        case .entertainment: "Entertainment"
        case .travel: "Hotel"
        case .health: "Medical expenses"
        case .shopping: "Clothing"
        case .gifts: "Gifts"
        case .other: "Other"
        }
    }
}

/// An hledger (and ledger, and beancount through its converters) journal of one person's side:
/// each expense a transaction with their part as an expense, what they paid out of
/// `assets:cash`, and what each other person owes them for it under `receivable:NAME`, so that
/// `hledger balance receivable` shows the balances `flows balances` does.
public enum LedgerJournal {
    public static func write(_ sheet: Sheet, for person: Int) -> String {
        let accounts = Self.accounts(sheet.people)
        let id = { (index: Int) in UserID(rawValue: "\(index)") }
        var text = "; Flows export: \(sheet.people[person])'s side, \(sheet.entries.count) entries.\n"
        for entry in sheet.entries where entry.people.contains(person) {
            let currency = entry.amount.currency
            var postings: [(String, Int64)] = []
            let deltas: [PairBalances.Delta]
            switch entry.movement {
            case .expense(let paid, let parts):
                if let part = parts[person], part > 0 { postings.append(("expenses:\(entry.category.rawValue)", part)) }
                if let out = paid[person], out > 0 { postings.append(("assets:cash", -out)) }
                deltas = PairBalances.deltas(
                    payers: paid.list.map { (id($0.person), $0.amount) }, parts: parts.list.map { (id($0.person), $0.amount) }, in: currency
                )
            case .payment(let from, let to):
                postings.append(("assets:cash", from == person ? -entry.amount.minorUnits : entry.amount.minorUnits))
                deltas = [PairBalances.Delta(creditor: id(from), debtor: id(to), amount: entry.amount)]
            }
            for delta in deltas {
                if delta.creditor == id(person), let other = Int(delta.debtor.rawValue) {
                    postings.append(("receivable:\(accounts[other])", delta.amount.minorUnits))
                } else if delta.debtor == id(person), let other = Int(delta.creditor.rawValue) {
                    postings.append(("receivable:\(accounts[other])", -delta.amount.minorUnits))
                }
            }
            let title = if case .payment(let from, let to) = entry.movement { "Payment from \(sheet.people[from]) to \(sheet.people[to])" } else { entry.description }
            text += "\n\(entry.day) \(Self.clean(title))\n    ; id: \(Self.clean(entry.key))\n"
            for (account, units) in postings {
                text += "    \(account)  \(amountText(units, currency)) \(currency.code)\n"
            }
        }
        return text
    }

    /// Each person's account name: one line, no colon or semicolon, no double space, once.
    static func accounts(_ people: [String]) -> [String] {
        var taken: Set<String> = []
        return people.map { name in
            var base = clean(name).replacingOccurrences(of: ":", with: "-")
            if base.isEmpty { base = "someone" }
            var account = base
            var number = 2
            while !taken.insert(account.lowercased()).inserted {
                account = "\(base) (\(number))"
                number += 1
            }
            return account
        }
    }

    /// Text on one line, without a semicolon (a comment) or runs of spaces (an amount's start).
    static func clean(_ text: String) -> String {
        text.replacingOccurrences(of: ";", with: ",").replacingOccurrences(of: "|", with: "/").oneLine
    }
}
