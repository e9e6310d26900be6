import Accounts
import FlowsAPI
import FlowsWire
import OpenAPIRuntime
import Primitives
import PrimitivesRemote

/// The Accounts operations of the contract, each declared once: flows-server serves them and
/// ``RemoteAccountsService`` calls them.
///
/// Those of the service's operations tagged `/// - Contract:` are declared from the contract in
/// `AccountsAPI+Contract.swift`, which `Scripts/generate-services` writes; the rest are here.
public enum AccountsAPI {
    public typealias Call<Input: Sendable, Output: Sendable> = Endpoint<Input, Output, AccountsError>
    /// A new session: its token and its user.
    public typealias NewSession = (token: String, user: User)

    public static let signUp = Call<(email: String, displayName: String, password: String), NewSession>(
        "signUp", .post, "/accounts", status: .created, request: .body(Wire.signUp), response: .json(Wire.session), problems: problems
    )
    public static let signIn = Call<(email: String, password: String), NewSession>(
        "signIn", .post, "/sessions", request: .body(Wire.signIn), response: .json(Wire.session), problems: problems
    )
    public static let getCurrentSession = Call<Void, User>(
        "getCurrentSession", .get, "/sessions/current", request: .none, response: .json(Wire.currentSession), problems: problems
    )
    public static let signOut = Call<Void, Void>(
        "signOut", .delete, "/sessions/current", status: .noContent, request: .none, response: .none, problems: problems
    )
    public static let getCurrentUser = Call<Void, User>(
        "getCurrentUser", .get, "/me", request: .none, response: .json(Wire.user), problems: problems
    )
    public static let changeEmail = Call<(email: String, password: String), User>(
        "changeEmail", .put, "/me/email", request: .body(Wire.emailChange), response: .json(Wire.user), problems: problems
    )
    public static let changePassword = Call<(current: String, new: String), Void>(
        "changePassword", .put, "/me/password", status: .noContent, request: .body(Wire.passwordChange), response: .none, problems: problems
    )
    public static let listSessions = Call<Void, [SessionSummary]>(
        "listSessions", .get, "/me/sessions", request: .none, response: .json(Wire.sessionList), problems: problems
    )
    public static let endSession = Call<SessionSummary.ID, Void>(
        "endSession", .delete, "/me/sessions/{sessionId}", status: .noContent, request: .path("sessionId", Wire.sessionID), response: .none,
        problems: problems
    )
    public static let endOtherSessions = Call<Void, Int>(
        "endOtherSessions", .delete, "/me/other-sessions", request: .none, response: .json(Wire.endedSessions), problems: problems
    )
    public static let listUsers = Call<Set<UserID>, [User]>(
        "listUsers", .post, "/users/lookup", request: .body(Wire.userIDs), response: .json(Wire.userList), problems: problems
    )
    public static let listExistingUsers = Call<Set<UserID>, [UserID]>(
        "listExistingUsers", .post, "/users/existing", request: .body(Wire.userIDs), response: .json(Wire.userIDList), problems: problems
    )
    public static let findUserByFriendCode = Call<FriendCode, PublicProfile>(
        "findUserByFriendCode", .post, "/users/by-friend-code", request: .body(Wire.friendCodeLookup), response: .json(Wire.profile),
        problems: problems
    )
    public static let findUserByEmail = Call<String, PublicProfile>(
        "findUserByEmail", .post, "/users/by-email", request: .body(Wire.emailLookup), response: .json(Wire.profile), problems: problems
    )

    /// Accounts' errors as the contract's refusals, and back.
    public static let problems = ProblemTable<AccountsError>(
        problem: { error in
            switch error {
            case .invalidEmail(let problem): APIProblem(problem, field: "/email")
            case .invalidDisplayName(let problem): APIProblem(problem, field: "/displayName")
            case .invalidPassword(let problem): .named("invalid-password-", problem, field: "/newPassword")
            case .emailTaken: APIProblem(.conflict, .emailTaken, error.message)
            case .wrongEmailOrPassword: APIProblem(.unauthorized, .wrongEmailOrPassword, error.message)
            case .wrongPassword: APIProblem(.forbidden, .wrongPassword, error.message)
            case .samePassword: APIProblem(.unprocessableContent, .samePassword, error.message)
            case .noSuchAccount: APIProblem(.unauthorized, .noSuchAccount, error.message)
            case .noSuchSession: APIProblem(.notFound, .sessionNotFound, error.message)
            case .alreadyVerified: APIProblem(.conflict, .alreadyVerified, error.message)
            case .wrongCode(let triesLeft):
                APIProblem(.unprocessableContent, .wrongCode, error.message, details: .init(triesLeft: Int32(clamping: triesLeft)))
            case .codeExpired: APIProblem(.unprocessableContent, .codeExpired, error.message)
            case .mailUnavailable(let reason):
                // The reason names the mail system's insides: to the log, not to the client.
                APIProblem(.serviceUnavailable, .mailUnavailable, "The code could not be sent; try again later.").logging(reason)
            case .refused(let rule): .refused(rule)
            case .storeUnavailable(let reason), .serverUnreachable(let reason): .storeUnavailable(reason)
            case .signedOut: .unauthenticated(error.message, tokenSent: true)
            case .tooManyAttempts(let seconds): .rateLimited(error.message, retryAfter: seconds)
            }
        },
        failure: { failure in
            if let problem = failure.problem(EmailAddress.Problem.self) { return .invalidEmail(problem) }
            if let problem = failure.problem(DisplayName.Problem.self) { return .invalidDisplayName(problem) }
            if let problem = failure.problem(PasswordRules.Problem.self, prefix: "invalid-password-") { return .invalidPassword(problem) }
            switch failure.code {
            case .emailTaken?: return .emailTaken
            case .wrongEmailOrPassword?: return .wrongEmailOrPassword
            case .wrongPassword?: return .wrongPassword
            case .samePassword?: return .samePassword
            case .noSuchAccount?: return .noSuchAccount
            case .sessionNotFound?: return .noSuchSession
            case .alreadyVerified?: return .alreadyVerified
            case .wrongCode?: return .wrongCode(triesLeft: max(0, Int(failure.details?.triesLeft ?? 0)))
            case .codeExpired?: return .codeExpired
            case .mailUnavailable?: return .mailUnavailable("the server's mail system did not take it")
            case .unauthenticated?, .sessionExpired?: return .signedOut
            case .rateLimited?:
                if case .refused(_, _, let seconds) = failure { return .tooManyAttempts(seconds: seconds ?? 60) }
                return .tooManyAttempts(seconds: 60)
            case .refused?: return .refused(failure.details?.reason ?? failure.message)
            case .storeUnavailable?: return .storeUnavailable(failure.message)
            default: return .serverUnreachable(failure.description)
            }
        }
    )
}

// MARK: - Accounts' values in the contract's form

extension Wire {
    public static var user: WireValue<User, Components.Schemas.User> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                User(
                    id: UserID(rawValue: wire.id), email: try email.read(wire.email, "\(field)/email"),
                    displayName: try displayName.read(wire.displayName, "\(field)/displayName"),
                    friendCode: try friendCode.read(wire.friendCode, "\(field)/friendCode"), emailVerified: wire.emailVerified
                )
            },
            write: {
                .init(
                    id: $0.id.rawValue, email: $0.email.value, displayName: $0.displayName.value, friendCode: $0.friendCode.rawValue,
                    emailVerified: $0.emailVerified
                )
            }
        )
    }

    static var sessionID: WireValue<SessionSummary.ID, String> {
        WireValue(
            read: { text, field throws(APIProblem) in
                guard SessionSummary.isID(text) else { throw .invalidRequest("\(field) is not a session's id (16 hexadecimal digits).", field: field) }
                return text
            },
            write: { $0 }
        )
    }

    static var sessionList: WireValue<[SessionSummary], Components.Schemas.SessionList> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                var sessions: [SessionSummary] = []
                for (index, session) in wire.sessions.enumerated() {
                    sessions.append(SessionSummary(
                        id: try sessionID.read(session.id, "\(field)/sessions/\(index)/id"), client: session.client,
                        createdAt: session.createdAt, lastUsedAt: session.lastUsedAt, isCurrent: session.current
                    ))
                }
                return sessions
            },
            write: { sessions in
                .init(sessions: sessions.map { .init(id: $0.id, client: $0.client, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt, current: $0.isCurrent) })
            }
        )
    }

    static var endedSessions: WireValue<Int, Components.Schemas.EndedSessions> {
        WireValue(read: { wire, _ in wire.ended }, write: { .init(ended: $0) })
    }

    static var userList: WireValue<[User], Components.Schemas.UserList> {
        user.list().wrapped("users", in: { .init(users: $0) }, { $0.users })
    }

    static var session: WireValue<AccountsAPI.NewSession, Components.Schemas.Session> {
        WireValue(
            read: { wire, field throws(APIProblem) in (wire.token, try user.read(wire.user, "\(field)/user")) },
            write: { .init(token: $0.token, user: user.write($0.user), idleDays: Int32(SessionPolicy.idleDays)) }
        )
    }

    static var currentSession: WireValue<User, Components.Schemas.CurrentSession> {
        WireValue(
            read: { wire, field throws(APIProblem) in try user.read(wire.user, "\(field)/user") },
            write: { .init(user: user.write($0), idleDays: Int32(SessionPolicy.idleDays)) }
        )
    }

    static var signUp: WireValue<(email: String, displayName: String, password: String), Components.Schemas.SignUpRequest> {
        WireValue(
            read: { wire, _ throws(APIProblem) in
                (
                    email: try emailText.read(wire.email, "/email"), displayName: try nameText.read(wire.displayName, "/displayName"),
                    password: try password.read(wire.password, "/password")
                )
            },
            write: { .init(email: $0.email, displayName: $0.displayName, password: $0.password) }
        )
    }

    static var signIn: WireValue<(email: String, password: String), Components.Schemas.SignInRequest> {
        WireValue(
            read: { wire, _ throws(APIProblem) in (email: try emailText.read(wire.email, "/email"), password: try password.read(wire.password, "/password")) },
            write: { .init(email: $0.email, password: $0.password) }
        )
    }

    static var emailChange: WireValue<(email: String, password: String), Components.Schemas.ChangeEmailRequest> {
        WireValue(
            read: { wire, _ throws(APIProblem) in (email: try emailText.read(wire.email, "/email"), password: try password.read(wire.password, "/password")) },
            write: { .init(email: $0.email, password: $0.password) }
        )
    }

    static var verifyEmailRequest: WireValue<String, Components.Schemas.VerifyEmailRequest> {
        WireValue(read: { wire, _ throws(APIProblem) in wire.code }, write: { .init(code: $0) })
    }

    static var passwordChange: WireValue<(current: String, new: String), Components.Schemas.ChangePasswordRequest> {
        WireValue(
            read: { wire, _ throws(APIProblem) in
                (current: try password.read(wire.currentPassword, "/currentPassword"), new: try password.read(wire.newPassword, "/newPassword"))
            },
            write: { .init(currentPassword: $0.current, newPassword: $0.new) }
        )
    }

    static var friendCodeLookup: WireValue<FriendCode, Components.Schemas.FriendCodeLookupRequest> {
        WireValue(
            read: { wire, _ throws(APIProblem) in
                try friendCode.read(try text(atMost: WireText.Limit.friendCode).read(wire.friendCode, "/friendCode"), "/friendCode")
            },
            write: { .init(friendCode: $0.rawValue) }
        )
    }

    static var emailLookup: WireValue<String, Components.Schemas.EmailLookupRequest> {
        WireValue(read: { wire, _ throws(APIProblem) in try emailText.read(wire.email, "/email") }, write: { .init(email: $0) })
    }

    private static var emailText: WireValue<String, String> { text(atMost: WireText.Limit.email) }
    private static var nameText: WireValue<String, String> { text(atMost: WireText.Limit.displayName) }
    private static var password: WireValue<String, String> { text(atMost: WireText.Limit.password) }

    public static var avatar: WireValue<Avatar, Components.Schemas.Avatar> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                switch wire {
                case .none: return .none
                case .initials(let initials): return .initials(AvatarColour(rawValue: initials.colour.rawValue) ?? .standIn(for: UserID(rawValue: "")))
                case .image(let image): return .image(try picture(image.data, "\(field)/data"))
                }
            },
            write: { avatar in
                switch avatar {
                case .none: .none(.init(kind: .none))
                case .initials(let colour): .initials(.init(kind: .initials, colour: colourWire(colour)))
                case .image(let image):
                    .image(.init(
                        kind: .image, format: image.format == .png ? .png : .jpeg, width: Int32(clamping: image.width),
                        height: Int32(clamping: image.height), data: Base64EncodedData(image.bytes)
                    ))
                }
            }
        )
    }

    static var avatarChange: WireValue<Avatar, Components.Schemas.AvatarChange> {
        WireValue(
            read: { change, _ throws(APIProblem) in
                switch change {
                case .none: return .none
                case .initials(let initials):
                    guard let colour = AvatarColour(rawValue: initials.colour.rawValue) else {
                        throw .invalidRequest("/colour is not a colour of the palette.", field: "/colour")
                    }
                    return .initials(colour)
                case .image(let image): return .image(try picture(image.data, "/data"))
                }
            },
            write: { avatar in
                switch avatar {
                case .none: .none(.init(kind: .none))
                case .initials(let colour): .initials(.init(kind: .initials, colour: colourWire(colour)))
                case .image(let image): .image(.init(kind: .image, data: Base64EncodedData(image.bytes)))
                }
            }
        )
    }

    /// The contract's palette is the domain's, name for name (a test checks every colour).
    private static func colourWire(_ colour: AvatarColour) -> Components.Schemas.AvatarColour {
        Components.Schemas.AvatarColour(rawValue: colour.rawValue) ?? .blue
    }

    private static func picture(_ data: Base64EncodedData, _ field: String) throws(APIProblem) -> AvatarImage {
        do throws(AvatarProblem) { return try AvatarImage(bytes: Array(data.data)) } catch { throw APIProblem(error, field: field) }
    }
}

extension APIProblem {
    /// A picture the avatar rules refuse.
    init(_ problem: AvatarProblem, field: String) {
        let code: Code = switch problem {
        case .empty: .invalidAvatarEmpty
        case .tooLarge: .invalidAvatarTooLarge
        case .notAnImage: .invalidAvatarNotAnImage
        case .damaged: .invalidAvatarDamaged
        case .tooManyPixels: .invalidAvatarTooManyPixels
        }
        self.init(.unprocessableContent, code, problem.message, details: .init(field: field))
    }
}
