import Expenses
import Friends
import Groups
import Interchange
import Primitives

extension LiveInterchangeService {
    public func export(_ filter: ExportFilter, by user: UserID) async throws(InterchangeError) -> Sheet {
        var expenses: [Expense] = []
        var settlements: [Settlement] = []
        let groupNames = await groups.names(of: user)
        var group: GroupID?
        if let name = filter.group {
            guard let id = groupNames.first(where: { $0.value.lowercased() == name.lowercased() })?.key else { throw .noSuchGroup(name) }
            group = id
        }
        do throws(ExpensesError) {
            if let id = group {
                expenses = try await Self.all { page throws(ExpensesError) in try await self.expenses.expenses(in: id, for: user, page: page) }
                settlements = try await Self.all { page throws(ExpensesError) in try await self.expenses.settlements(in: id, for: user, page: page) }
            } else {
                expenses = try await Self.all { page throws(ExpensesError) in try await self.expenses.expenses(of: user, page: page) }
                settlements = try await Self.all { page throws(ExpensesError) in try await self.expenses.settlements(of: user, page: page) }
            }
        } catch {
            throw .storeUnavailable(error.message)
        }
        // Only what the user is in (a group's list has the others' too), from the day asked.
        let since = filter.since
        expenses = expenses.filter { expense in expense.people.contains(user) && since.map { expense.day >= $0 } ?? true }
        settlements = settlements.filter { payment in ([payment.from, payment.to] + payment.through).contains(user) && since.map { payment.day >= $0 } ?? true }

        // The user first, then everyone else in the order they come.
        var order: [UserID] = [user]
        var place: [UserID: Int] = [user: 0]
        let placed = { (person: UserID) -> Int in
            if let index = place[person] { return index }
            order.append(person)
            place[person] = order.count - 1
            return order.count - 1
        }
        var entries: [(day: Day, entry: SheetEntry)] = []
        // Numbered as met here, then again in the sheet's order.
        for expense in expenses {
            let paid = Shares(expense.payers.map { Shares.Share(person: placed($0.user), amount: $0.amount.minorUnits) })
            let parts = Shares(expense.split.parts.map { Shares.Share(person: placed($0.user), amount: $0.amount.minorUnits) })
            entries.append((expense.day, SheetEntry(
                row: 0, day: expense.day, description: expense.description, category: expense.category, amount: expense.amount,
                movement: .expense(paid: paid, parts: parts), key: expense.id.rawValue, note: expense.note, group: expense.group.flatMap { groupNames[$0] },
                id: expense.id.rawValue
            )))
        }
        for settlement in settlements {
            // A payment routed through others is each of its legs, as the balances moved; a
            // conversion is a payment in each currency, the second the other way.
            let legs = settlement.balanceDeltas
            let description = settlement.conversion.map { "Conversion at \($0.rate) (\($0.source))" } ?? "Payment"
            for (index, leg) in legs.enumerated() {
                let key = legs.count == 1 ? settlement.id.rawValue : "\(settlement.id.rawValue)#\(index + 1)"
                entries.append((settlement.day, SheetEntry(
                    row: 0, day: settlement.day, description: description, category: .general, amount: leg.amount,
                    movement: .payment(from: placed(leg.creditor), to: placed(leg.debtor)),
                    key: key, group: settlement.group.flatMap { groupNames[$0] }, id: key
                )))
            }
        }
        // Oldest first; within a day, expenses then payments, each by id: the same order in any
        // ledger that holds them. People are numbered in that order too, the user first.
        let sorted = entries.map(\.entry).sorted { (first: SheetEntry, second: SheetEntry) in
            (first.day, first.isPayment ? 1 : 0, first.key) < (second.day, second.isPayment ? 1 : 0, second.key)
        }
        var renumbered: [Int: Int] = [0: 0]
        var people: [UserID] = [user]
        let number = { (old: Int) -> Int in
            if let new = renumbered[old] { return new }
            renumbered[old] = people.count
            people.append(order[old])
            return people.count - 1
        }
        let numbered = sorted.enumerated().map { row, entry in
            var entry = entry
            entry.row = row + 1
            switch entry.movement {
            case .expense(let paid, let parts):
                let paid = Shares(paid.list.map { Shares.Share(person: number($0.person), amount: $0.amount) })
                entry.movement = .expense(paid: paid, parts: Shares(parts.list.map { Shares.Share(person: number($0.person), amount: $0.amount) }))
            case .payment(let from, let to):
                let from = number(from)
                entry.movement = .payment(from: from, to: number(to))
            }
            return entry
        }
        var names: [UserID: String] = [:]
        var emails: [Int: String] = [:]
        do throws(FriendsError) {
            names = try await friends.names(of: Set(people), for: user).mapValues(\.value)
            let index = Dictionary(uniqueKeysWithValues: people.enumerated().map { ($1, $0) })
            for friend in try await friends.friends(of: user) {
                if let place = index[friend.id], let email = friend.email { emails[place] = email.value }
            }
        } catch {
            throw .storeUnavailable(error.message)
        }
        return Sheet(format: "flows", people: people.map { names[$0] ?? "Someone" }, emails: emails, exporter: 0, entries: numbered)
    }

    /// Every page of a list.
    private static func all<T>(_ read: (PageRequest) async throws(ExpensesError) -> [T]) async throws(ExpensesError) -> [T] {
        var items: [T] = []
        var page = PageRequest(limit: 1_000)
        while true {
            let batch = try await read(page)
            items += batch
            guard batch.count == page.limit else { return items }
            page = page.next
        }
    }
}
