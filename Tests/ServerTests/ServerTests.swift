import FlowsAPI
import FlowsServer
import Foundation
import Testing

/// flows-server over real HTTP on loopback, driven by the generated client.
@Suite(.timeLimit(.minutes(2)))
struct ServerTests {
    @Test func healthAndReadiness() async throws {
        try await LiveServer.with { server async throws in
            #expect(try await server.client().checkHealth().ok.body.json.status == .ok)
            #expect(try await server.client().checkReadiness().ok.body.json.status == .ok)
        }
    }

    @Test func signUpSignInAndOut() async throws {
        try await LiveServer.with { server in
            let ada = try await server.signUp("Ada")
            #expect(try await ada.client.getCurrentUser().ok.body.json.email == "ada@example.com")
            #expect(try await ada.client.getCurrentSession().ok.body.json.idleDays == 30)

            // The email is taken in any case.
            let taken = try await server.client().signUp(body: .json(.init(email: "ADA@example.com", displayName: "Ada", password: "correct horse")))
            #expect(code(of: try taken.conflict.body.json) == "email-taken")

            // A wrong password and an unknown email are the same refusal.
            let wrong = try await server.client().signIn(body: .json(.init(email: "ada@example.com", password: "wrong horse")))
            #expect(code(of: try wrong.unauthorized.body.json) == "wrong-email-or-password")
            let unknown = try await server.client().signIn(body: .json(.init(email: "nobody@example.com", password: "correct horse")))
            #expect(code(of: try unknown.unauthorized.body.json) == "wrong-email-or-password")

            // A second session; signing out ends only the one it is sent with.
            let second = try await server.client().signIn(body: .json(.init(email: " Ada@Example.com ", password: "correct horse"))).ok.body.json
            #expect(second.user.id == ada.id)
            #expect(second.token != ada.token)
            _ = try await server.client(token: second.token).signOut().noContent
            let ended = try await server.client(token: second.token).getCurrentUser()
            #expect(code(of: try ended.unauthorized.body.json) == "unauthenticated")
            #expect(try await ada.client.getCurrentUser().ok.body.json.id == ada.id)
        }
    }

    @Test func sessionsExpireAfterThirtyIdleDays() async throws {
        try await LiveServer.with { server in
            let ada = try await server.signUp("Ada")
            server.clock.advance(days: 29)
            #expect(try await ada.client.getCurrentUser().ok.body.json.id == ada.id)
            // Used on day 29: the 30 days start again.
            server.clock.advance(days: 29)
            #expect(try await ada.client.getCurrentUser().ok.body.json.id == ada.id)
            server.clock.advance(days: 31)
            let expired = try await ada.client.getCurrentUser()
            #expect(code(of: try expired.unauthorized.body.json) == "session-expired")
            // Ended for good: the same token is now unknown.
            let again = try await ada.client.getCurrentUser()
            #expect(code(of: try again.unauthorized.body.json) == "unauthenticated")
        }
    }

    @Test func changingThePasswordEndsOtherSessions() async throws {
        try await LiveServer.with { server in
            let ada = try await server.signUp("Ada")
            let other = try await server.client().signIn(body: .json(.init(email: "ada@example.com", password: "correct horse"))).ok.body.json
            let same = try await ada.client.changePassword(body: .json(.init(currentPassword: "correct horse", newPassword: "correct horse")))
            #expect(code(of: try same.unprocessableContent.body.json) == "same-password")
            let wrong = try await ada.client.changePassword(body: .json(.init(currentPassword: "nope nope", newPassword: "battery staple")))
            #expect(code(of: try wrong.forbidden.body.json) == "wrong-password")

            _ = try await ada.client.changePassword(body: .json(.init(currentPassword: "correct horse", newPassword: "battery staple"))).noContent
            #expect(try await ada.client.getCurrentUser().ok.body.json.id == ada.id)
            let ended = try await server.client(token: other.token).getCurrentUser()
            #expect(code(of: try ended.unauthorized.body.json) == "unauthenticated")
            _ = try await server.client().signIn(body: .json(.init(email: "ada@example.com", password: "battery staple"))).ok
        }
    }

    @Test("a user lists their sessions with what signed in, ends one or all others; another's id is 404; an email change ends the others")
    func sessionsListedAndEnded() async throws {
        try await LiveServer.with { server in
            let ada = try await server.signUp("Ada")
            func signIn(as agent: String) async throws -> String {
                let answer = try await server.raw(
                    "POST", "/sessions", body: Data(#"{"email":"ada@example.com","password":"correct horse"}"#.utf8), headers: ["User-Agent": agent]
                )
                let session = try JSONDecoder().decode(Components.Schemas.Session.self, from: answer.body)
                return session.token
            }
            let laptop = try await signIn(as: "flows/0.1.0 (command line)")
            let phone = try await signIn(as: "Phone\u{202E}app")
            let sessions = try await ada.client.listSessions().ok.body.json.sessions
            #expect(sessions.count == 3)
            #expect(sessions.first?.current == true)
            #expect(sessions.dropFirst().allSatisfy { !$0.current })
            let clients = Set(sessions.map(\.client))
            #expect(clients.contains("flows/0.1.0 (command line), through flows-server"))
            #expect(clients.contains("Phoneapp, through flows-server"), "invisible characters are not kept: \(clients)")
            // Bob cannot end Ada's sessions: they do not exist for him.
            let bob = try await server.signUp("Bob")
            let laptopID = try #require(try await server.client(token: laptop).listSessions().ok.body.json.sessions.first?.id)
            #expect(code(of: try await bob.client.endSession(path: .init(sessionId: laptopID)).notFound.body.json) == "session-not-found")
            _ = try await ada.client.endSession(path: .init(sessionId: laptopID)).noContent
            #expect(code(of: try await server.client(token: laptop).getCurrentUser().unauthorized.body.json) == "unauthenticated")
            #expect(try await server.client(token: phone).getCurrentUser().ok.body.json.id == ada.id)
            #expect(try await ada.client.endOtherSessions().ok.body.json.ended == 1)
            #expect(code(of: try await server.client(token: phone).getCurrentUser().unauthorized.body.json) == "unauthenticated")
            // An email change ends every other session.
            let tablet = try await signIn(as: "tablet")
            _ = try await ada.client.changeEmail(body: .json(.init(email: "ada@example.org", password: "correct horse"))).ok
            #expect(code(of: try await server.client(token: tablet).getCurrentUser().unauthorized.body.json) == "unauthenticated")
            #expect(try await ada.client.getCurrentUser().ok.body.json.email == "ada@example.org")
        }
    }

    @Test func friendsExpensesBalancesAndSettlingUp() async throws {
        try await LiveServer.with { server in
            let ada = try await server.signUp("Ada")
            let bob = try await server.signUp("Bob")
            // A request first: Bob is not Ada's friend until he accepts.
            let asked = try await ada.client.addFriend(body: .json(.email(.init(by: .email, email: "bob@example.com")))).created.body.json
            #expect(asked.status == .requested && asked.person.id == bob.id && asked.friend == nil)
            #expect(try await bob.client.listFriends().ok.body.json.friends.isEmpty)
            let waiting = try await bob.client.listFriendRequests().ok.body.json
            #expect(waiting.incoming.map(\.person.id) == [ada.id] && waiting.outgoing.isEmpty)
            #expect(try await ada.client.listFriendRequests().ok.body.json.outgoing.map(\.person.id) == [bob.id])
            let unnamed = try await ada.client.addExpense(body: .json(.dinner(1_000, paidBy: ada.id, among: [ada.id, bob.id])))
            #expect(code(of: try unnamed.unprocessableContent.body.json) == "unknown-people")
            guard case .account(let account) = try await bob.client.acceptFriendRequest(path: .init(personId: ada.id)).ok.body.json
            else { throw ServerTestError("Ada is an account") }
            #expect(account.id == ada.id)
            #expect(try await bob.client.listFriends().ok.body.json.friends.count == 1)
            #expect(try await ada.client.listFriendRequests().ok.body.json.outgoing.isEmpty)
            let again = try await ada.client.addFriend(body: .json(.friendCode(.init(by: .friendCode, friendCode: bob.user.friendCode.lowercased()))))
            #expect(code(of: try again.conflict.body.json) == "already-friends")

            let sam = try await ada.client.addContact(body: .json(.init(name: "Sam Park"))).created.body.json
            guard case .contact(let contact) = sam else { throw ServerTestError("Sam is a contact") }

            // 100.00 EUR among three: 33.34 for the smallest id's remainder, and the rest.
            let expense = try await ada.client.addExpense(body: .json(.dinner(10_000, paidBy: ada.id, among: [ada.id, bob.id, contact.id])))
                .created.body.json
            #expect(expense.split.parts.map(\.amount.minorUnits).reduce(0, +) == 10_000)
            #expect(expense.split.extraUnits.count == 1)
            #expect(try await bob.client.getExpense(path: .init(expenseId: expense.id)).ok.body.json == expense)

            let balances = try await ada.client.listBalances().ok.body.json.balances
            #expect(Set(balances.map(\.other)) == [bob.id, contact.id])
            #expect(balances.map(\.amount.minorUnits).reduce(0, +) == 10_000 - (expense.split.parts.first { $0.user == ada.id }?.amount.minorUnits ?? 0))
            let bobOwes = try #require(balances.first { $0.other == bob.id }).amount
            #expect(try await bob.client.listBalances().ok.body.json.balances == [.init(other: ada.id, amount: .init(minorUnits: -bobOwes.minorUnits, currency: "EUR"))])

            // Bob pays Ada back: settled between them.
            let payment = try await bob.client.settleUp(body: .json(.init(counterparty: ada.id, paidBy: .me, amount: .init(minorUnits: bobOwes.minorUnits, currency: "EUR"), day: "2026-11-21"))).created.body.json
            #expect(payment.from == bob.id && payment.to == ada.id)
            #expect(try await bob.client.listBalances().ok.body.json.balances.isEmpty)
            #expect(try await ada.client.listSettlements().ok.body.json.settlements.map(\.id) == [payment.id])
            let activity = try await ada.client.listActivity().ok.body.json.activity
            #expect(activity.map(\.kind) == [.settled, .added])
            #expect(activity.last?.summary == "Dinner, 100.00 EUR")

            // Taken back: the balance returns.
            _ = try await ada.client.undoSettlement(path: .init(settlementId: payment.id)).noContent
            #expect(try await bob.client.listBalances().ok.body.json.balances.map(\.amount.minorUnits) == [-bobOwes.minorUnits])
            // Its history: who recorded it and who took it back, the payment whole each time.
            let history = try await bob.client.getPaymentHistory(path: .init(settlementId: payment.id)).ok.body.json.changes
            #expect(history.map(\.kind) == [.settled, .unsettled])
            #expect(history.map(\.by) == [bob.id, ada.id])
            #expect(history.allSatisfy { $0.payment == payment })

            // Removing a friend with an open balance is refused, with the balance.
            let unsettled = try await ada.client.removeFriend(path: .init(friendId: bob.id))
            let problem = try unsettled.conflict.body.json
            #expect(code(of: problem) == "not-settled")
            #expect(problem.details?.balances == [bobOwes])

            let suggested = try await ada.client.listSuggestedPayments(query: .init(currency: "EUR")).ok.body.json.payments
            #expect(suggested.count == 2)
            let report = try await ada.client.getSpendingReport(query: .init(from: "2026-11-01", through: "2026-11-30")).ok.body.json
            #expect(report.byMonth.map(\.label) == ["2026-11"])
            #expect(try await ada.client.listCurrencies().ok.body.json.currencies == [.init(code: "EUR", decimals: 2)])
        }
    }

    @Test("the server makes repeating expenses due on its own rounds, with nobody asking, each once")
    func seriesRounds() async throws {
        try await LiveServer.with(seriesRound: .milliseconds(50)) { server in
            let ada = try await server.signUp("Ada")
            // Weekly from 2026-11-20; the server's today is 2027-01-15: eight more are due.
            let gym = try await ada.client.addExpense(body: .json(.dinner(3_000, paidBy: ada.id, among: [ada.id], description: "Gym"))).created.body.json
            _ = try await ada.client.repeatExpense(path: .init(expenseId: gym.id), body: .json(.init(frequency: .init(kind: .weeks, every: 1)))).created
            var count = 0
            for _ in 0..<200 {
                count = try await ada.client.listExpenses(query: .init(limit: 100)).ok.body.json.expenses.count
                if count == 9 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(count == 9)
            // Later rounds make nothing twice.
            try await Task.sleep(for: .milliseconds(300))
            let days = try await ada.client.listExpenses(query: .init(limit: 100)).ok.body.json.expenses.map(\.day)
            #expect(days.count == 9 && Set(days).count == 9)
            #expect(days.min() == "2026-11-20" && days.max() == "2027-01-15")
        }
    }

    @Test func editDeleteAndRestore() async throws {
        try await LiveServer.with { server in
            let ada = try await server.signUp("Ada")
            let bob = try await server.signUp("Bob")
            try await ada.befriend(bob)
            let expense = try await ada.client.addExpense(body: .json(.dinner(3_000, paidBy: ada.id, among: [ada.id, bob.id]))).created.body.json
            var draft = Components.Schemas.ExpenseDraft.dinner(4_000, paidBy: bob.id, among: [ada.id, bob.id], description: "Lunch")
            draft.rule = .shares(.init(mode: .shares, shares: .init(additionalProperties: [ada.id: 3, bob.id: 1])))
            #expect(expense.version == 1)
            let edited = try await bob.client.editExpense(path: .init(expenseId: expense.id), headers: .init(ifMatch: #""1""#), body: .json(draft)).ok.body.json
            #expect(edited.description == "Lunch")
            #expect(edited.version == 2)
            #expect(try await ada.client.listBalances().ok.body.json.balances.map(\.amount.minorUnits) == [-3_000])

            // Ada still has version 1: her edit and her delete would undo what Bob did, unseen.
            let stale = try await ada.client.editExpense(path: .init(expenseId: expense.id), headers: .init(ifMatch: #""1""#), body: .json(.dinner(1_000, paidBy: ada.id, among: [ada.id, bob.id])))
            let refusal = try stale.preconditionFailed.body.json
            #expect(code(of: refusal) == "changed-since" && refusal.details?.version == 2)
            #expect(code(of: try await ada.client.deleteExpense(path: .init(expenseId: expense.id), headers: .init(ifMatch: #""1""#)).preconditionFailed.body.json) == "changed-since")
            #expect(try await ada.client.getExpense(path: .init(expenseId: expense.id)).ok.body.json == edited, "nothing was written")
            // Without If-Match a change says nothing of what it was made from: 428; a malformed one is 400.
            let bare = try await server.raw("DELETE", "/expenses/\(expense.id)", token: ada.token)
            #expect(bare.status == 428 && bare.problemCode == "version-required", "\(bare)")
            for tag in ["2", #""+2""#, #""02""#, #""""#] {
                let malformed = try await server.raw("DELETE", "/expenses/\(expense.id)", token: ada.token, headers: ["If-Match": tag])
                #expect(malformed.status == 400 && malformed.problemCode == "invalid-request", "If-Match \(tag): \(malformed)")
            }

            _ = try await ada.client.deleteExpense(path: .init(expenseId: expense.id), headers: .init(ifMatch: #""2""#)).noContent
            #expect(try await ada.client.listBalances().ok.body.json.balances.isEmpty)
            let gone = try await bob.client.getExpense(path: .init(expenseId: expense.id))
            #expect(code(of: try gone.notFound.body.json) == "not-found")
            #expect(try await bob.client.listDeletedExpenses().ok.body.json.expenses.map(\.id) == [expense.id])
            _ = try await bob.client.restoreExpense(path: .init(expenseId: expense.id)).ok
            #expect(try await ada.client.listExpenses(query: .init(offset: 0, limit: 10)).ok.body.json.expenses.map(\.description) == ["Lunch"])

            // Every change, kept whole: who, and the expense as it left it.
            let history = try await ada.client.getExpenseHistory(path: .init(expenseId: expense.id)).ok.body.json.changes
            #expect(history.map(\.kind) == [.added, .edited, .deleted, .restored])
            #expect(history.map(\.by) == [ada.id, bob.id, ada.id, bob.id])
            #expect(history.map(\.expense) == [expense, edited, edited, edited])
            let cy = try await server.signUp("Cy")
            #expect(code(of: try await cy.client.getExpenseHistory(path: .init(expenseId: expense.id)).notFound.body.json) == "not-found")
        }
    }

    @Test func domainRefusalsKeepTheirCodes() async throws {
        try await LiveServer.with { server in
            let ada = try await server.signUp("Ada")
            var draft = Components.Schemas.ExpenseDraft.dinner(1_000, paidBy: ada.id, among: [ada.id])
            draft.rule = .percentages(.init(mode: .percentages, basisPoints: .init(additionalProperties: [ada.id: 9_000])))
            let percentages = try await ada.client.addExpense(body: .json(draft)).unprocessableContent.body.json
            #expect(code(of: percentages) == "split-percentages-sum")
            #expect(percentages.details?.basisPoints == 9_000)

            draft = .dinner(1_000, paidBy: ada.id, among: [ada.id, "00000000-0000-4000-8000-000000000000"])
            let unknown = try await ada.client.addExpense(body: .json(draft)).unprocessableContent.body.json
            #expect(code(of: unknown) == "unknown-people")

            draft = .dinner(1_000, paidBy: ada.id, among: [ada.id])
            draft.day = "2026-02-30"
            #expect(code(of: try await ada.client.addExpense(body: .json(draft)).unprocessableContent.body.json) == "invalid-day-no-such-day")
            draft = .dinner(1_000, paidBy: ada.id, among: [ada.id])
            draft.amount.currency = "XYZ"
            #expect(code(of: try await ada.client.addExpense(body: .json(draft)).unprocessableContent.body.json) == "unknown-currency")

            let badCode = try await ada.client.addFriend(body: .json(.friendCode(.init(by: .friendCode, friendCode: "K7QX-M3RD-8"))))
            #expect(code(of: try badCode.unprocessableContent.body.json).hasPrefix("invalid-friend-code"))
            let yourself = try await ada.client.addFriend(body: .json(.email(.init(by: .email, email: "ada@example.com"))))
            #expect(code(of: try yourself.unprocessableContent.body.json) == "yourself")
            let name = try await ada.client.changeDisplayName(body: .json(.init(displayName: "   ")))
            #expect(code(of: try name.unprocessableContent.body.json) == "invalid-display-name-empty")
        }
    }

    @Test func preferencesAndTheirStream() async throws {
        try await LiveServer.with { server in
            let ada = try await server.signUp("Ada")
            #expect(try await ada.client.getPreferences().ok.body.json == .init(theme: .dark, defaultCurrency: "EUR"))
            _ = try await ada.client.updatePreferences(body: .json(.init(theme: .light, defaultCurrency: "JPY"))).noContent
            #expect(try await ada.client.getPreferences().ok.body.json == .init(theme: .light, defaultCurrency: "JPY"))

            // URLSession on Linux hands over a body only once it is whole; a stream never is.
            let stream = try RawConnection(port: server.port)
            try await stream.send("GET /preferences/changes HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(ada.token)\r\n\r\n")
            let first = try await stream.read(until: "\n\n", after: "\r\n\r\n")
            #expect(first.hasPrefix("HTTP/1.1 200"))
            #expect(first.lowercased().contains("content-type: text/event-stream"))
            #expect(first.hasSuffix("event: preferences\ndata: {\"defaultCurrency\":\"JPY\",\"theme\":\"light\"}\n\n"))

            // A change made elsewhere comes next.
            _ = try await ada.client.updatePreferences(body: .json(.init(theme: .noColour, defaultCurrency: "JPY"))).noContent
            let next = try await stream.read(until: "\n\n")
            #expect(next.hasSuffix("event: preferences\ndata: {\"defaultCurrency\":\"JPY\",\"theme\":\"no-colour\"}\n\n"))
        }
    }

    @Test func avatars() async throws {
        try await LiveServer.with { server in
            let ada = try await server.signUp("Ada")
            #expect(try await ada.client.getMyAvatar().ok.body.json == .none(.init(kind: .none)))
            _ = try await ada.client.changeAvatar(body: .json(.initials(.init(kind: .initials, colour: .teal)))).noContent
            #expect(try await ada.client.getMyAvatar().ok.body.json == .initials(.init(kind: .initials, colour: .teal)))
            let notAPicture = try await ada.client.changeAvatar(body: .json(.image(.init(kind: .image, data: .init(Array("hello".utf8))))))
            #expect(code(of: try notAPicture.unprocessableContent.body.json) == "invalid-avatar-not-an-image")
        }
    }
}
