import Expenses
import ExpensesRemote
import FlowsAPI
import FlowsWire

extension EndpointRoutes {
    /// Expenses' operations (``ExpensesAPI``) whose input is not the call's arguments as they stand,
    /// or whose answer is more than the call's (the others are ``contract(_:)``'s).
    func expenses(_ expenses: any ExpensesService) throws {
        try serve(ExpensesAPI.listExpenses) { page, user in try await expenses.expenses(of: user, page: page) }
        try serve(ExpensesAPI.getExpense) { id, user in
            guard let expense = try await expenses.expense(id, for: user) else { throw ExpensesError.notFound(id) }
            return expense
        }
        try serve(ExpensesAPI.editExpense) { input, user in try await expenses.edit(input.0.0, to: input.0.1, from: input.1, by: user) }
        try serve(ExpensesAPI.listDeletedExpenses) { page, user in try await expenses.deletedExpenses(of: user, page: page) }
        try serve(ExpensesAPI.listSharedExpenses) { input, user in try await expenses.expenses(of: user, sharedWith: input.0, page: input.1) }
        try serve(ExpensesAPI.listSettlements) { page, user in try await expenses.settlements(of: user, page: page) }
        try serve(ExpensesAPI.settleUp) { input, user in
            let (payment, id) = input
            let (from, to) = payment.parties(for: user)
            return try await expenses.settle(from: from, to: to, amount: payment.amount, day: payment.day, in: payment.group, as: id, by: user)
        }
        try serve(ExpensesAPI.getSettlement) { id, user in
            guard let settlement = try await expenses.settlement(id, for: user) else { throw ExpensesError.notFound(id) }
            return settlement
        }
        try serve(ExpensesAPI.convertBalance) { input, user in
            let (draft, id) = input
            return try await expenses.convert(
                draft.balance, with: draft.counterparty, at: draft.rate, source: draft.source, day: draft.day, in: draft.group, as: id, by: user
            )
        }
        try serve(ExpensesAPI.addComment) { input, user in try await expenses.comment(input.0.1, on: input.0.0, as: input.1, by: user) }
        try serve(ExpensesAPI.deleteComment) { input, user in try await expenses.deleteComment(input.1, on: input.0, by: user) }
        try serve(ExpensesAPI.undoSettlement) { id, user in
            do {
                try await expenses.undoSettlement(id, by: user)
            } catch ExpensesError.invalidSettlement(let reason) {
                // Someone who neither made nor received the payment may not take it back: a
                // `403` here (a `422` is a payment that cannot be recorded).
                throw APIProblem(.forbidden, .invalidSettlement, ExpensesError.invalidSettlement(reason).message, details: .init(reason: reason))
            }
        }
        try serve(ExpensesAPI.listActivity) { page, user in try await expenses.activity(of: user, page: page) }
        try serve(ExpensesAPI.listGroupExpenses) { input, user in try await expenses.expenses(in: input.0, for: user, page: input.1) }
        try serve(ExpensesAPI.listGroupSettlements) { input, user in try await expenses.settlements(in: input.0, for: user, page: input.1) }
    }
}

extension EndpointRoutes {
    /// Repeating expenses' operations (``ExpensesAPI``), each one call of the service.
    func series(_ recurring: any RecurringExpenses) throws {
        try serve(ExpensesAPI.repeatExpense) { input, user in
            let ((id, repeating), series) = input
            return try await recurring.repeatExpense(id, every: repeating.frequency, until: repeating.end, as: series, by: user)
        }
        try serve(ExpensesAPI.getExpenseSeries) { id, user in try await recurring.series(containing: id, for: user) }
        try serve(ExpensesAPI.listSeries) { day, user in try await recurring.series(of: user, after: day) }
        try serve(ExpensesAPI.createDueOccurrences) { day, user in try await recurring.createDueOccurrences(through: day, for: user) }
        try serve(ExpensesAPI.editSeries) { input, user in try await recurring.editSeries(input.0, to: input.1, by: user) }
        try serve(ExpensesAPI.stopSeries) { input, user in try await recurring.stopSeries(input.0, after: input.1, by: user) }
    }
}
