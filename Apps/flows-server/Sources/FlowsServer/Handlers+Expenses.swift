import Expenses
import ExpensesRemote
import FlowsAPI
import FlowsWire
import Primitives

extension Handlers {
    // MARK: - Expenses

    func listExpenses(_ input: Operations.ListExpenses.Input) async throws -> Operations.ListExpenses.Output {
        let user = try user
        let page = try Self.page(offset: input.query.offset, limit: input.query.limit)
        let list = try await expenses { () async throws(ExpensesError) in try await services.expenses.expenses(of: user, page: page) }
        return .ok(.init(body: .json(.init(expenses: list.map(Components.Schemas.Expense.init)))))
    }

    func addExpense(_ input: Operations.AddExpense.Input) async throws -> Operations.AddExpense.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let user = try user
        let draft = try Read.draft(body)
        let expense = try await expenses { () async throws(ExpensesError) in try await services.expenses.add(draft, by: user) }
        return .created(.init(body: .json(.init(expense))))
    }

    func getExpense(_ input: Operations.GetExpense.Input) async throws -> Operations.GetExpense.Output {
        let user = try user
        let id = try Read.expenseID(input.path.expenseId, field: "expenseId")
        let expense = try await expenses { () async throws(ExpensesError) in try await services.expenses.expense(id, for: user) }
        guard let expense else { throw APIProblem(ExpensesError.notFound(id)) }
        return .ok(.init(body: .json(.init(expense))))
    }

    func editExpense(_ input: Operations.EditExpense.Input) async throws -> Operations.EditExpense.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let user = try user
        let id = try Read.expenseID(input.path.expenseId, field: "expenseId")
        let draft = try Read.draft(body)
        let expense = try await expenses { () async throws(ExpensesError) in try await services.expenses.edit(id, to: draft, by: user) }
        return .ok(.init(body: .json(.init(expense))))
    }

    func deleteExpense(_ input: Operations.DeleteExpense.Input) async throws -> Operations.DeleteExpense.Output {
        let user = try user
        let id = try Read.expenseID(input.path.expenseId, field: "expenseId")
        try await expenses { () async throws(ExpensesError) in try await services.expenses.delete(id, by: user) }
        return .noContent(.init())
    }

    func listDeletedExpenses(_ input: Operations.ListDeletedExpenses.Input) async throws -> Operations.ListDeletedExpenses.Output {
        let user = try user
        let page = try Self.page(offset: input.query.offset, limit: input.query.limit)
        let list = try await expenses { () async throws(ExpensesError) in try await services.expenses.deletedExpenses(of: user, page: page) }
        return .ok(.init(body: .json(.init(expenses: list.map(Components.Schemas.Expense.init)))))
    }

    func restoreExpense(_ input: Operations.RestoreExpense.Input) async throws -> Operations.RestoreExpense.Output {
        let user = try user
        let id = try Read.expenseID(input.path.expenseId, field: "expenseId")
        let expense = try await expenses { () async throws(ExpensesError) in try await services.expenses.restore(id, by: user) }
        return .ok(.init(body: .json(.init(expense))))
    }

    func listSharedExpenses(_ input: Operations.ListSharedExpenses.Input) async throws -> Operations.ListSharedExpenses.Output {
        let user = try user
        let other = try Read.userID(input.path.personId, field: "personId")
        let page = try Self.page(offset: input.query.offset, limit: input.query.limit)
        let list = try await expenses { () async throws(ExpensesError) in
            try await services.expenses.expenses(of: user, sharedWith: other, page: page)
        }
        return .ok(.init(body: .json(.init(expenses: list.map(Components.Schemas.Expense.init)))))
    }

    func listRecentPeople(_ input: Operations.ListRecentPeople.Input) async throws -> Operations.ListRecentPeople.Output {
        let user = try user
        let people = try await expenses { () async throws(ExpensesError) in try await services.expenses.recentPeople(of: user) }
        return .ok(.init(body: .json(.init(ids: people.map(\.rawValue)))))
    }

    // MARK: - Payments

    func listSettlements(_ input: Operations.ListSettlements.Input) async throws -> Operations.ListSettlements.Output {
        let user = try user
        let page = try Self.page(offset: input.query.offset, limit: input.query.limit)
        let list = try await expenses { () async throws(ExpensesError) in try await services.expenses.settlements(of: user, page: page) }
        return .ok(.init(body: .json(.init(settlements: list.map(Components.Schemas.Settlement.init)))))
    }

    func settleUp(_ input: Operations.SettleUp.Input) async throws -> Operations.SettleUp.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let user = try user
        let other = try Read.userID(body.counterparty, field: "/counterparty")
        let amount = try Read.money(minorUnits: body.amount.minorUnits, currency: body.amount.currency, field: "/amount")
        let day = try Read.day(body.day, field: "/day")
        let (from, to) = body.paidBy == .me ? (user, other) : (other, user)
        let settlement = try await expenses { () async throws(ExpensesError) in
            try await services.expenses.settle(from: from, to: to, amount: amount, day: day, by: user)
        }
        return .created(.init(body: .json(.init(settlement))))
    }

    func undoSettlement(_ input: Operations.UndoSettlement.Input) async throws -> Operations.UndoSettlement.Output {
        let user = try user
        let id = try Read.expenseID(input.path.settlementId, field: "settlementId")
        do {
            try await services.expenses.undoSettlement(id, by: user)
        } catch .invalidSettlement(let reason) {
            // Someone who neither made nor received the payment may not take it back: a `403`
            // here (a `422` is a payment that cannot be recorded).
            throw APIProblem(.forbidden, .invalidSettlement, ExpensesError.invalidSettlement(reason).message, details: .init(reason: reason))
        } catch {
            throw APIProblem(error)
        }
        return .noContent(.init())
    }

    // MARK: - Balances and reports

    func listBalances(_ input: Operations.ListBalances.Input) async throws -> Operations.ListBalances.Output {
        let user = try user
        let balances = try await expenses { () async throws(ExpensesError) in try await services.expenses.balances(of: user) }
        return .ok(.init(body: .json(.init(balances: balances.map { .init(other: $0.other.rawValue, amount: .init($0.amount)) }))))
    }

    func listSuggestedPayments(_ input: Operations.ListSuggestedPayments.Input) async throws -> Operations.ListSuggestedPayments.Output {
        let user = try user
        let currency = try Read.currency(input.query.currency, field: "currency")
        let payments = try await expenses { () async throws(ExpensesError) in
            try await services.expenses.suggestedPayments(for: user, in: currency)
        }
        return .ok(.init(body: .json(.init(payments: payments.map { .init(from: $0.from.rawValue, to: $0.to.rawValue, amount: .init($0.amount)) }))))
    }

    func listActivity(_ input: Operations.ListActivity.Input) async throws -> Operations.ListActivity.Output {
        let user = try user
        let page = try Self.page(offset: input.query.offset, limit: input.query.limit)
        let list = try await expenses { () async throws(ExpensesError) in try await services.expenses.activity(of: user, page: page) }
        return .ok(.init(body: .json(.init(activity: list.map(Components.Schemas.Activity.init)))))
    }

    func getSpendingReport(_ input: Operations.GetSpendingReport.Input) async throws -> Operations.GetSpendingReport.Output {
        let user = try user
        let first = try input.query.from.map { text throws(APIProblem) in try Read.day(text, field: "from") }
        let last = try input.query.through.map { text throws(APIProblem) in try Read.day(text, field: "through") }
        let report = try await expenses { () async throws(ExpensesError) in try await services.expenses.spending(of: user, from: first, through: last) }
        let lines = { (lines: [SpendingReport.Line]) in lines.map { Components.Schemas.SpendingLine(label: $0.label, amount: .init($0.amount)) } }
        return .ok(.init(body: .json(.init(byCategory: lines(report.byCategory), byMonth: lines(report.byMonth)))))
    }

    func listCurrencies(_ input: Operations.ListCurrencies.Input) async throws -> Operations.ListCurrencies.Output {
        let user = try user
        let currencies = try await expenses { () async throws(ExpensesError) in try await services.expenses.currencies(of: user) }
        return .ok(.init(body: .json(.init(currencies: currencies.map { .init(code: $0.code, decimals: Int32($0.decimals)) }))))
    }
}
