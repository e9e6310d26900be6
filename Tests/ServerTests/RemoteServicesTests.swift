import Accounts
import AccountsData
import Expenses
import FlowsApp
import FlowsServer
import Foundation
import Friends
import Preferences
import Primitives
import SyncRemote
import FlowsAPIClient
import Testing

/// The CLI's remote services against flows-server: the domain's answers and errors come back
/// as the live services give them, and what only a server can say (a session that ended, a
/// limit, no server at all) becomes the domain's own errors.
@Suite(.timeLimit(.minutes(2)))
struct RemoteServicesTests {
    /// Someone's app on the test server.
    struct App {
        let container: AppContainer
        let tokens: InMemorySessionTokenStore
        let user: User

        /// The server's pull and push, over HTTP, in this app's session.
        func sync(_ server: LiveServer) -> RemoteSyncService {
            RemoteSyncService(connection: APIConnection(server: server.url, token: { [tokens] in try? tokens.load() }, userAgent: "flows-tests"))
        }
    }

    static func app(_ server: LiveServer, name: String) async throws -> App {
        let tokens = InMemorySessionTokenStore()
        let container = AppContainer.remote(server: server.url, tokens: tokens)
        let user = try await container.accounts.signUp(email: "\(name.lowercased())@example.com", displayName: name, password: "correct horse")
        return App(container: container, tokens: tokens, user: user)
    }

    @Test func sessionsAsTheAppSeesThem() async throws {
        try await LiveServer.with { server in
            let ada = try await Self.app(server, name: "Ada")
            #expect(try await ada.container.accounts.storedSession() == .signedIn(ada.user))
            #expect(try ada.tokens.load() != nil)

            // Unused for 31 days: expired, and the token is forgotten.
            server.clock.advance(days: 31)
            #expect(try await ada.container.accounts.storedSession() == .expired)
            #expect(try ada.tokens.load() == nil)
            #expect(try await ada.container.accounts.storedSession() == .signedOut)

            let again = try await ada.container.accounts.signIn(email: "ADA@example.com", password: "correct horse")
            #expect(again == ada.user)
            await #expect(throws: AccountsError.wrongEmailOrPassword) {
                try await ada.container.accounts.signIn(email: "ada@example.com", password: "wrong horse")
            }
            await #expect(throws: AccountsError.emailTaken) {
                try await ada.container.accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
            }
            await #expect(throws: AccountsError.invalidEmail(.shape)) {
                try await ada.container.accounts.changeEmail(to: "ada@", password: "correct horse", of: ada.user.id)
            }

            // Signed out elsewhere: every area says so.
            let token = try #require(try ada.tokens.load())
            let other = AppContainer.remote(server: server.url, tokens: InMemorySessionTokenStore(token: token))
            try await other.accounts.signOut()
            await #expect(throws: FriendsError.signedOut) { try await ada.container.friends.friends(of: ada.user.id) }
            await #expect(throws: ExpensesError.signedOut) { try await ada.container.expenses.balances(of: ada.user.id) }
            await #expect(throws: PreferencesError.signedOut) { try await ada.container.preferences.preferences(of: ada.user.id) }
            await #expect(throws: AccountsError.signedOut) { try await ada.container.accounts.avatar(of: ada.user.id) }
            #expect(try await ada.container.accounts.storedSession() == .signedOut)
        }
    }

    @Test func refusalsComeBackWithTheirValues() async throws {
        try await LiveServer.with { server in
            let ada = try await Self.app(server, name: "Ada")
            let bob = try await Self.app(server, name: "Bob")
            let friends = ada.container.friends
            let expenses = ada.container.expenses
            // Ada asks; Bob, in his own app, accepts.
            #expect(try await friends.add(.email("bob@example.com"), by: ada.user.id) == .requested(PublicProfile(id: bob.user.id, name: bob.user.displayName)))
            #expect(try await bob.container.friends.requests(of: bob.user.id).incoming.map(\.person.id) == [ada.user.id])
            _ = try await bob.container.friends.accept(ada.user.id, by: bob.user.id)
            await #expect(throws: FriendsError.alreadyFriends(try DisplayName("Bob"))) {
                try await friends.add(.friendCode(bob.user.friendCode.description), by: ada.user.id)
            }
            await #expect(throws: FriendsError.invalidFriendCode(.length(4))) { try await friends.find(.friendCode("K7QX"), for: ada.user.id) }
            await #expect(throws: FriendsError.unknownEmail("zed@example.com")) { try await friends.find(.email("zed@example.com"), for: ada.user.id) }

            let eur = try #require(Currency(code: "EUR"))
            let twelve = Money(minorUnits: 1_250, currency: eur)
            let draft = ExpenseDraft(
                description: "Dinner", amount: Money(minorUnits: 2_500, currency: eur), day: try Day("2026-11-20"), category: .food,
                payers: [Payer(user: ada.user.id, amount: Money(minorUnits: 2_500, currency: eur))], participants: [ada.user.id, bob.user.id],
                rule: .equal
            )
            let added = try await expenses.add(draft, by: ada.user.id)
            #expect(added.split.parts.map(\.amount) == [twelve, twelve])
            #expect(try await bob.container.expenses.expense(added.id, for: bob.user.id) == added)
            await #expect(throws: FriendsError.notSettled(try DisplayName("Bob"), [twelve])) { try await friends.remove(bob.user.id, by: ada.user.id) }

            var wrong = draft
            wrong.rule = .percentages([ada.user.id: 4_000, bob.user.id: 5_000])
            await #expect(throws: ExpensesError.invalid(.split(.percentagesSum(basisPoints: 9_000)))) { try await expenses.add(wrong, by: ada.user.id) }
            wrong = draft
            wrong.payers = [Payer(user: ada.user.id, amount: Money(minorUnits: 2_000, currency: eur))]
            await #expect(throws: ExpensesError.invalid(.paymentsDoNotAddUp(paid: Money(minorUnits: 2_000, currency: eur), amount: draft.amount))) {
                try await expenses.add(wrong, by: ada.user.id)
            }
            wrong = draft
            wrong.description = "Dinner \u{202E}01"
            await #expect(throws: ExpensesError.invalid(.descriptionInvisibleCharacters)) { try await expenses.add(wrong, by: ada.user.id) }
            let nobody = UserID(rawValue: "00000000-0000-4000-8000-000000000000")
            wrong = draft
            wrong.participants = [ada.user.id, nobody]
            await #expect(throws: ExpensesError.unknownPeople([nobody])) { try await expenses.add(wrong, by: ada.user.id) }
            #expect(try await expenses.expense(ExpenseID(rawValue: "00000000-0000-4000-8000-000000000001"), for: ada.user.id) == nil)

            // Bob moves what he owes into yen at a stated rate (12.50 × 162.51 = 2031.375: 2031
            // JPY); Ada sees it with its rate. A second try from the same reading is refused, as
            // the balance has changed. He takes it back.
            let published = try #require(PublishedRate("162.51"))
            let yen = try #require(ExchangeRate(base: eur, quote: .jpy, rate: published))
            let owed = Money(minorUnits: -1_250, currency: eur)
            let conversion = try await bob.container.expenses.convert(owed, with: ada.user.id, at: yen, source: "agreed", day: try Day("2026-11-21"), in: nil, by: bob.user.id)
            #expect(conversion.conversion == Conversion(amount: Money(minorUnits: 2_031, currency: .jpy), rate: yen, source: "agreed"))
            #expect(try await expenses.settlements(of: ada.user.id, page: PageRequest()) == [conversion])
            #expect(try await expenses.balances(of: ada.user.id) == [Balance(other: bob.user.id, amount: Money(minorUnits: 2_031, currency: .jpy))])
            await #expect(throws: ExpensesError.invalidSettlement("The balance in EUR changed since you read it (it is now 0.00 EUR); nothing was converted.")) {
                try await bob.container.expenses.convert(owed, with: ada.user.id, at: yen, source: "agreed", day: try Day("2026-11-21"), in: nil, by: bob.user.id)
            }
            try await bob.container.expenses.undoSettlement(conversion.id, by: bob.user.id)

            // A series over HTTP: made, listed with its next day, refused out of range, stopped.
            let series = try #require(ada.container.recurring)
            let bobs = try #require(bob.container.recurring)
            let weekly = try await series.repeatExpense(added.id, every: .weeks(1), until: nil, by: ada.user.id)
            #expect(try await bobs.series(containing: added.id, for: bob.user.id) == weekly)
            let seen = try await bobs.series(of: bob.user.id, after: try Day("2026-11-20"))
            #expect(seen == [UpcomingOccurrence(series: weekly, next: try Day("2026-11-27"))])
            await #expect(throws: ExpensesError.invalidRepeat(.interval)) {
                try await series.repeatExpense(added.id, every: .days(0), until: nil, by: ada.user.id)
            }
            let stopped = try await series.stopSeries(weekly.id, after: try Day("2026-11-20"), by: ada.user.id)
            #expect(stopped.recurrence.end == .on(try Day("2026-11-20")))
            #expect(try await series.createDueOccurrences(through: try Day("2026-12-31"), for: ada.user.id).isEmpty)

            // A thread over HTTP: each refusal comes back as the domain's own.
            let question = try await bob.container.expenses.comment("Was it 25 or 52?", on: added.id, by: bob.user.id)
            #expect(try await expenses.comments(on: added.id, for: ada.user.id) == [question])
            await #expect(throws: ExpensesError.invalidComment(.controlCharacters)) {
                try await expenses.comment("two\nlines", on: added.id, by: ada.user.id)
            }
            await #expect(throws: ExpensesError.notYourComment) { try await expenses.deleteComment(question.id, on: added.id, by: ada.user.id) }
            try await bob.container.expenses.deleteComment(question.id, on: added.id, by: bob.user.id)
            await #expect(throws: ExpensesError.commentNotFound(question.id)) {
                try await bob.container.expenses.deleteComment(question.id, on: added.id, by: bob.user.id)
            }

            // Bob pays: both see the payment; the balance is settled.
            let payment = try await bob.container.expenses.settle(from: bob.user.id, to: ada.user.id, amount: twelve, day: try Day("2026-11-21"), by: bob.user.id)
            #expect(try await expenses.settlements(of: ada.user.id, page: PageRequest()) == [payment])
            #expect(try await expenses.balances(of: ada.user.id).isEmpty)
            let activity = try await expenses.activity(of: ada.user.id, page: PageRequest(limit: 10))
            #expect(activity.map(\.kind) == [.settled, .commented, .unsettled, .settled, .added])
            #expect(try await friends.names(of: [bob.user.id], for: ada.user.id) == [bob.user.id: try DisplayName("Bob")])
        }
    }

    @Test func limitsAndAnAbsentServer() async throws {
        try await LiveServer.with(limits: RateLimits(failuresPerAccount: 2, failuresPerAddress: 50, signUpsPerAddress: 50)) { server in
            let ada = try await Self.app(server, name: "Ada")
            for _ in 0..<2 {
                await #expect(throws: AccountsError.wrongEmailOrPassword) {
                    try await ada.container.accounts.signIn(email: "ada@example.com", password: "wrong horse")
                }
            }
            await #expect {
                try await ada.container.accounts.signIn(email: "ada@example.com", password: "correct horse")
            } throws: { error in
                guard case AccountsError.tooManyAttempts(let seconds) = error else { return false }
                return seconds > 0 && seconds <= 15 * 60
            }
        }
        // Nothing listens on port 1.
        let absent = AppContainer.remote(server: URL(string: "http://127.0.0.1:1")!, tokens: InMemorySessionTokenStore(token: "x"))
        await #expect {
            _ = try await absent.accounts.storedSession()
        } throws: { error in
            guard case AccountsError.serverUnreachable(let reason) = error else { return false }
            return reason.contains("http://127.0.0.1:1") && (error as? AccountsError)?.message.hasPrefix("The server cannot be reached") == true
        }
    }
}
