import Accounts
import Expenses
import ExpensesRemote
import FlowsAPI
import FlowsWire
import Foundation
import HTTPTypes
import OpenAPIRuntime
import PrimitivesRemote
import Primitives

extension APIProblem {
    /// The response: the problem as JSON, with `headers`.
    var response: (HTTPResponse, HTTPBody) {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return (HTTPResponse(status: status, headerFields: fields), HTTPBody(bodyBytes))
    }

    // MARK: - The HTTP layer's own

    static var sessionExpired: APIProblem {
        var problem = APIProblem(.unauthorized, .sessionExpired, StoredSession.expiredNotice)
        problem.headers[.wwwAuthenticate] = #"Bearer error="invalid_token", error_description="session expired""#
        return problem
    }

    static func payloadTooLarge(limit: Int) -> APIProblem {
        let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
        return APIProblem(.contentTooLarge, .payloadTooLarge, "The request is larger than \(size).")
    }

    static var notReady: APIProblem {
        APIProblem(.serviceUnavailable, .notReady, "The server is not ready: its store does not answer yet.")
    }

}

// MARK: - Values

extension APIProblem {
    static func password(_ problem: PasswordRules.Problem) -> APIProblem {
        let code: Code = switch problem {
        case .tooShort: .invalidPasswordTooShort
        case .tooLong: .invalidPasswordTooLong
        case .controlCharacters: .invalidPasswordControlCharacters
        }
        return APIProblem(.unprocessableContent, code, problem.message, details: .init(field: "/newPassword"))
    }

    static func avatar(_ problem: AvatarProblem) -> APIProblem {
        let code: Code = switch problem {
        case .empty: .invalidAvatarEmpty
        case .tooLarge: .invalidAvatarTooLarge
        case .notAnImage: .invalidAvatarNotAnImage
        case .damaged: .invalidAvatarDamaged
        case .tooManyPixels: .invalidAvatarTooManyPixels
        }
        return APIProblem(.unprocessableContent, code, problem.message, details: .init(field: "/data"))
    }
}

// MARK: - Domain errors

extension APIProblem {
    init(_ error: AccountsError) {
        switch error {
        case .invalidEmail(let problem): self.init(problem, field: "/email")
        case .invalidDisplayName(let problem): self.init(problem, field: "/displayName")
        case .invalidPassword(let problem): self = .password(problem)
        case .emailTaken: self = APIProblem(.conflict, .emailTaken, error.message)
        case .wrongEmailOrPassword: self = APIProblem(.unauthorized, .wrongEmailOrPassword, error.message)
        case .wrongPassword: self = APIProblem(.forbidden, .wrongPassword, error.message)
        case .samePassword: self = APIProblem(.unprocessableContent, .samePassword, error.message)
        case .noSuchAccount: self = APIProblem(.unauthorized, .noSuchAccount, error.message)
        case .refused(let rule): self = .refused(rule)
        case .storeUnavailable(let reason): self = .storeUnavailable(reason)
        case .signedOut: self = .unauthenticated(error.message, tokenSent: true)
        case .serverUnreachable(let reason): self = .storeUnavailable(reason)
        case .tooManyAttempts(let seconds): self = .rateLimited(error.message, retryAfter: seconds)
        }
    }

    init(_ error: ExpensesError) {
        switch error {
        case .invalid(let problem): self.init(problem)
        case .notFound(let id): self = APIProblem(.notFound, .notFound, error.message, details: .init(expenseId: id.rawValue))
        case .notInExpense: self = APIProblem(.forbidden, .notInExpense, error.message)
        case .unknownPeople(let people):
            self = APIProblem(.unprocessableContent, .unknownPeople, error.message, details: .init(people: people.map(\.rawValue)))
        case .invalidSettlement(let reason):
            self = APIProblem(.unprocessableContent, .invalidSettlement, error.message, details: .init(reason: reason))
        case .beyondLimit(let currency): self = APIProblem(.conflict, .beyondLimit, error.message, details: .init(currency: currency.code))
        case .cannotMerge(let reason): self = APIProblem(.conflict, .cannotMerge, error.message, details: .init(reason: reason))
        case .refused(let rule): self = .refused(rule)
        case .storeUnavailable(let reason): self = .storeUnavailable(reason)
        case .signedOut: self = .unauthenticated(error.message, tokenSent: true)
        case .serverUnreachable(let reason): self = .storeUnavailable(reason)
        }
    }

    init(_ problem: ExpenseProblem) {
        let message = problem.message
        switch problem {
        case .description: self = .invalidValue(.invalidDescription, message, field: "/description")
        case .descriptionControlCharacters: self = .invalidValue(.invalidDescriptionControlCharacters, message, field: "/description")
        case .noPayer: self = .invalidValue(.noPayer, message, field: "/payers")
        case .duplicatePayer: self = .invalidValue(.duplicatePayer, message, field: "/payers")
        case .payerCurrency: self = .invalidValue(.payerCurrency, message, field: "/payers")
        case .payerAmount: self = .invalidValue(.payerAmount, message, field: "/payers")
        case .paymentsDoNotAddUp(let paid, let amount):
            self = APIProblem(
                .unprocessableContent, .paymentsDoNotAddUp, message,
                details: .init(field: "/payers", amount: .init(amount), sum: paid.map(Components.Schemas.Money.init))
            )
        case .amountTooLarge(let currency):
            self = APIProblem(.unprocessableContent, .amountTooLarge, message, details: .init(currency: currency.code))
        case .note: self = .invalidValue(.invalidNote, message, field: "/note")
        case .split(let split): self.init(split)
        }
    }

    init(_ problem: SplitProblem) {
        let message = problem.message
        switch problem {
        case .amountNotPositive: self = .invalidValue(.splitAmountNotPositive, message, field: "/amount")
        case .noParticipants: self = .invalidValue(.splitNoParticipants, message, field: "/participants")
        case .duplicateParticipant: self = .invalidValue(.splitDuplicateParticipant, message, field: "/participants")
        case .partsDoNotMatchParticipants: self = .invalidValue(.splitPartsDoNotMatchParticipants, message, field: "/rule")
        case .currencyMismatch: self = .invalidValue(.splitCurrencyMismatch, message, field: "/rule")
        case .negativePart: self = .invalidValue(.splitNegativePart, message, field: "/rule")
        case .exactSumMismatch(let sum, let amount):
            self = APIProblem(
                .unprocessableContent, .splitExactSumMismatch, message,
                details: .init(field: "/rule", amount: .init(amount), sum: sum.map(Components.Schemas.Money.init))
            )
        case .percentagesSum(let basisPoints):
            self = APIProblem(.unprocessableContent, .splitPercentagesSum, message, details: .init(field: "/rule", basisPoints: Int64(basisPoints)))
        case .percentageTooLarge: self = .invalidValue(.splitPercentageTooLarge, message, field: "/rule")
        case .shareTooLarge: self = .invalidValue(.splitShareTooLarge, message, field: "/rule")
        case .noShares: self = .invalidValue(.splitNoShares, message, field: "/rule")
        }
    }
}
