import Accounts
import Expenses
import ExpensesRemote
import FlowsAPI
import Foundation
import Friends
import HTTPTypes
import OpenAPIRuntime
import Preferences
import Primitives

/// A refusal, as the API answers it: a status and a `Problem` body (docs/api/openapi.yaml).
///
/// Handlers throw it; ``ProblemMiddleware`` writes it out. Every domain error maps to exactly
/// one code here, so a client can rebuild the error the service threw.
struct APIProblem: Error, Equatable {
    typealias Code = Components.Schemas.ErrorCode

    var status: HTTPResponse.Status
    var problem: Components.Schemas.Problem
    var headers: HTTPFields = [:]
    /// What went wrong inside, for the server's log only: a client never sees it.
    var logged: String?

    init(_ status: HTTPResponse.Status, _ code: Code, _ message: String, details: Components.Schemas.ProblemDetails? = nil) {
        self.status = status
        problem = Components.Schemas.Problem(error: code, message: message, details: details)
    }

    /// The response: the problem as JSON, with `headers`.
    var response: (HTTPResponse, HTTPBody) {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return (HTTPResponse(status: status, headerFields: fields), HTTPBody(bodyBytes))
    }

    /// The problem as JSON.
    var bodyBytes: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A Problem is plain strings and numbers: encoding cannot fail; the fallback says so.
        return (try? encoder.encode(problem)) ?? Data(#"{"error":"internal-error","message":"The server failed."}"#.utf8)
    }

    // MARK: - The HTTP layer's own

    static func invalidRequest(_ message: String, field: String? = nil) -> APIProblem {
        APIProblem(.badRequest, .invalidRequest, message, details: field.map { .init(field: $0) })
    }

    static func unauthenticated(_ message: String, tokenSent: Bool) -> APIProblem {
        var problem = APIProblem(.unauthorized, .unauthenticated, message)
        problem.headers[.wwwAuthenticate] = tokenSent ? #"Bearer error="invalid_token""# : "Bearer"
        return problem
    }

    static var sessionExpired: APIProblem {
        var problem = APIProblem(.unauthorized, .sessionExpired, StoredSession.expiredNotice)
        problem.headers[.wwwAuthenticate] = #"Bearer error="invalid_token", error_description="session expired""#
        return problem
    }

    static func rateLimited(_ message: String, retryAfter seconds: Int) -> APIProblem {
        var problem = APIProblem(.tooManyRequests, .rateLimited, message)
        problem.headers[.retryAfter] = String(max(1, seconds))
        return problem
    }

    static func payloadTooLarge(limit: Int) -> APIProblem {
        let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
        return APIProblem(.contentTooLarge, .payloadTooLarge, "The request is larger than \(size).")
    }

    static var notReady: APIProblem {
        APIProblem(.serviceUnavailable, .notReady, "The server is not ready: its store does not answer yet.")
    }

    static var internalError: APIProblem {
        APIProblem(.internalServerError, .internalError, "The server failed to answer; nothing was changed that is not shown.")
    }

    /// A value of the request no domain type accepts, in the domain's words.
    static func invalidValue(_ code: Code, _ message: String, field: String) -> APIProblem {
        APIProblem(.unprocessableContent, code, message, details: .init(field: field))
    }
}

// MARK: - Values

extension APIProblem {
    static func email(_ problem: EmailAddress.Problem, field: String? = nil) -> APIProblem {
        let code: Code = switch problem {
        case .empty: .invalidEmailEmpty
        case .controlCharacters: .invalidEmailControlCharacters
        case .invisibleCharacters: .invalidEmailInvisibleCharacters
        case .tooLong: .invalidEmailTooLong
        case .shape: .invalidEmailShape
        }
        return APIProblem(.unprocessableContent, code, problem.message, details: field.map { .init(field: $0) })
    }

    static func displayName(_ problem: DisplayName.Problem, field: String? = nil) -> APIProblem {
        let code: Code = switch problem {
        case .empty: .invalidDisplayNameEmpty
        case .controlCharacters: .invalidDisplayNameControlCharacters
        case .invisibleCharacters: .invalidDisplayNameInvisibleCharacters
        case .tooLong: .invalidDisplayNameTooLong
        case .tooManyMarks: .invalidDisplayNameTooManyMarks
        }
        return APIProblem(.unprocessableContent, code, problem.message, details: field.map { .init(field: $0) })
    }

    static func friendCode(_ problem: FriendCodeProblem) -> APIProblem {
        switch problem {
        case .length(let count):
            APIProblem(.unprocessableContent, .invalidFriendCodeLength, problem.message, details: .init(length: Int32(clamping: count)))
        case .character(let character):
            APIProblem(.unprocessableContent, .invalidFriendCodeCharacter, problem.message, details: .init(character: String(character)))
        case .check:
            APIProblem(.unprocessableContent, .invalidFriendCodeCheck, problem.message)
        }
    }

    static func day(_ problem: Day.Problem, field: String) -> APIProblem {
        let code: Code = switch problem {
        case .shape: .invalidDayShape
        case .notADay: .invalidDayNotADay
        case .noSuchDay: .invalidDayNoSuchDay
        case .outOfRange: .invalidDayOutOfRange
        }
        return invalidValue(code, problem.message, field: field)
    }

    static func unknownCurrency(_ code: String, field: String) -> APIProblem {
        // `details.currency` is a code of three capital letters (the contract's CurrencyCode);
        // anything else is named in the message only, cut short.
        let isCode = code.utf8.count == 3 && code.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
        return APIProblem(
            .unprocessableContent, .unknownCurrency, "\(isCode ? code : "\"\(code.prefix(20))\"") is not a currency this server knows.",
            details: .init(field: field, currency: isCode ? code : nil)
        )
    }

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

    /// What the store reported; nothing was changed.
    static func storeUnavailable(_ reason: String) -> APIProblem {
        // The reason names the store's insides; it goes to the log, not to the client.
        APIProblem(.serviceUnavailable, .storeUnavailable, "The store is unavailable; nothing was changed. Try again.")
            .logging(reason)
    }

    static func refused(_ rule: String) -> APIProblem {
        APIProblem(.conflict, .refused, "The store refused the change; nothing was saved.", details: .init(reason: rule))
    }

    /// The same problem, with what the server's log says beside it (never sent).
    func logging(_ reason: String) -> APIProblem {
        var copy = self
        copy.logged = reason
        return copy
    }
}

// MARK: - Domain errors

extension APIProblem {
    init(_ error: AccountsError) {
        switch error {
        case .invalidEmail(let problem): self = .email(problem, field: "/email")
        case .invalidDisplayName(let problem): self = .displayName(problem, field: "/displayName")
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

    init(_ error: FriendsError) {
        switch error {
        case .invalidFriendCode(let problem): self = .friendCode(problem)
        case .invalidEmail(let problem): self = .email(problem, field: "/email")
        case .invalidName(let problem): self = .displayName(problem, field: "/name")
        case .yourself: self = APIProblem(.unprocessableContent, .yourself, error.message)
        case .alreadyFriends(let name): self = APIProblem(.conflict, .alreadyFriends, error.message, details: .init(name: name.value))
        case .unknownFriendCode(let code):
            self = APIProblem(.notFound, .unknownFriendCode, error.message, details: .init(friendCode: code.rawValue))
        case .unknownEmail(let email): self = APIProblem(.notFound, .unknownEmail, error.message, details: .init(email: email))
        case .emailHasAccount(let email): self = APIProblem(.conflict, .emailHasAccount, error.message, details: .init(email: email))
        case .contactEmailTaken(let email): self = APIProblem(.conflict, .contactEmailTaken, error.message, details: .init(email: email))
        case .contactNameTaken(let name): self = APIProblem(.conflict, .contactNameTaken, error.message, details: .init(name: name.value))
        case .notAFriend: self = APIProblem(.notFound, .notAFriend, error.message)
        case .notAContact: self = APIProblem(.notFound, .notAContact, error.message)
        case .notSettled(let name, let balances):
            self = APIProblem(
                .conflict, .notSettled, error.message, details: .init(name: name.value, balances: balances.map(Components.Schemas.Money.init))
            )
        case .cannotLink(let reason): self = APIProblem(.conflict, .cannotLink, error.message, details: .init(reason: reason))
        case .refused(let rule): self = .refused(rule)
        case .storeUnavailable(let reason): self = .storeUnavailable(reason)
        case .signedOut: self = .unauthenticated(error.message, tokenSent: true)
        case .serverUnreachable(let reason): self = .storeUnavailable(reason)
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

    init(_ error: PreferencesError) {
        switch error {
        case .storeUnavailable(let reason): self = .storeUnavailable(reason)
        case .signedOut: self = .unauthenticated(error.message, tokenSent: true)
        case .serverUnreachable(let reason): self = .storeUnavailable(reason)
        }
    }
}
