import FlowsAPI
import Foundation
import Testing

/// Requests from someone who should not see or change the data: without a working session, or
/// signed in as someone else. Each is refused, and afterwards the data is exactly as before.
@Suite(.timeLimit(.minutes(2)))
struct SecurityTests {
    // MARK: - Without a working session

    @Test("every operation that needs a session refuses no token, another scheme, a forged, an ended and an expired one, and nothing changes")
    func withoutAWorkingSession() async throws {
        let guarded = try checkCallsCoverTheContract().filter { !$0.isOpen }.map(\.id)
        let calls = contractCalls.filter { guarded.contains($0.id) }
        #expect(calls.count == guarded.count)
        try await LiveServer.with { server in
            let world = try await World.make(on: server)
            let (adaSaw, bobSaw) = (try await world.everythingSeen(with: world.ada.token), try await world.everythingSeen(with: world.bob.token))

            let ended = try await world.signIn(world.ada)
            #expect(try await server.raw("DELETE", "/sessions/current", token: ended).status == 204)
            // One session per operation: an expired session answers `session-expired` once, then
            // it is gone.
            var expiring: [String: String] = [:]
            for call in calls { expiring[call.id] = try await world.signIn(world.ada) }
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            let forged = String((0..<43).map { _ in alphabet.randomElement()! })

            // (what the Authorization header says, the code, whether the answer says the token is invalid)
            let kinds: [(name: String, authorization: String?, code: String, invalidToken: Bool)] = [
                ("no token", nil, "unauthenticated", false),
                ("another scheme", "Basic YWRhQGV4YW1wbGUuY29tOmNvcnJlY3QgaG9yc2U=", "unauthenticated", false),
                ("an empty bearer token", "Bearer ", "unauthenticated", false),
                ("a token far too long", "Bearer " + String(repeating: "A", count: 4_000), "unauthenticated", false),
                ("a forged token", "Bearer \(forged)", "unauthenticated", true),
                ("an ended session", "Bearer \(ended)", "unauthenticated", true),
            ]
            for kind in kinds {
                for call in calls {
                    let answer = try await send(call, in: world, authorization: kind.authorization)
                    expectUnauthorized(answer, code: kind.code, invalidToken: kind.invalidToken, "\(call.id) with \(kind.name)")
                }
            }
            server.clock.advance(days: 31)
            for call in calls {
                let answer = try await send(call, in: world, authorization: "Bearer \(expiring[call.id] ?? "")")
                expectUnauthorized(answer, code: "session-expired", invalidToken: true, "\(call.id) with an expired session")
            }

            // Ada's and Bob's sessions expired too: new ones see what the old ones saw.
            #expect(try await world.everythingSeen(with: world.signIn(world.ada)) == adaSaw)
            #expect(try await world.everythingSeen(with: world.signIn(world.bob)) == bobSaw)
        }
    }

    private func send(_ call: Call, in world: World, authorization: String?) async throws -> RawResponse {
        let body = call.body(in: world).map { Data($0.utf8) }
        return try await world.server.raw(
            call.method, call.path(in: world), body: body, headers: call.headers(in: world).merging(authorization.map { ["Authorization": $0] } ?? [:]) { $1 }
        )
    }

    private func expectUnauthorized(_ answer: RawResponse, code: String, invalidToken: Bool, _ what: String) {
        #expect(answer.status == 401, "\(what): \(answer)")
        #expect(answer.problemCode == code, "\(what): \(answer)")
        let challenge = answer.headers["www-authenticate"] ?? ""
        #expect(challenge.hasPrefix("Bearer"), "\(what): WWW-Authenticate is \(challenge)")
        #expect(challenge.contains(#"error="invalid_token""#) == invalidToken, "\(what): WWW-Authenticate is \(challenge)")
    }

    // MARK: - Signed in as someone else

    @Test("a stranger and a former friend are refused everything of Ada's and Bob's, may not name them, and see none of it")
    func strangersAndFormerFriends() async throws {
        try await LiveServer.with { server in
            let world = try await World.make(on: server)
            let (ada, bob, cy, dee, sam) = (world.ada, world.bob, world.cy, world.dee, world.sam)
            let (adaSaw, bobSaw) = (try await world.everythingSeen(with: ada.token), try await world.everythingSeen(with: bob.token))

            func draft(paidBy payer: String, among people: [String]) -> String {
                let participants = people.map { "\"\($0)\"" }.joined(separator: ",")
                return #"{"description":"Mine now","amount":{"minorUnits":600,"currency":"EUR"},"day":"2026-11-22","category":"general","payers":[{"user":"\#(payer)","amount":{"minorUnits":600,"currency":"EUR"}}],"participants":[\#(participants)],"rule":{"mode":"equal"}}"#
            }
            func settle(_ counterparty: String, extra: String = "") -> String {
                #"{"counterparty":"\#(counterparty)","paidBy":"counterparty","amount":{"minorUnits":1000,"currency":"EUR"},"day":"2026-11-22"\#(extra)}"#
            }
            let cyByEmail = #"{"by":"email","email":"cy@example.com"}"#

            // What each attempt is answered: the status and the code, as the domain decides.
            let attempts: [(who: Member, method: String, path: String, body: String?, status: Int, code: String?)] = [
                (cy, "GET", "/expenses/\(world.dinner.id)", nil, 404, "not-found"),
                (cy, "GET", "/expenses/\(world.dinner.id)/history", nil, 404, "not-found"),
                (cy, "GET", "/expenses/\(world.taxi.id)/history", nil, 404, "not-found"),
                // Changing what one is not in answers as if it did not exist: nothing says it does.
                (cy, "PUT", "/expenses/\(world.dinner.id)", draft(paidBy: cy.id, among: [cy.id, ada.id]), 404, "not-found"),
                (cy, "PUT", "/expenses/\(world.dinner.id)", draft(paidBy: ada.id, among: [ada.id, bob.id]), 404, "not-found"),
                (cy, "DELETE", "/expenses/\(world.dinner.id)", nil, 404, "not-found"),
                (cy, "POST", "/deleted-expenses/\(world.taxi.id)/restore", nil, 404, "not-found"),
                (cy, "POST", "/deleted-expenses/\(world.dinner.id)/restore", nil, 404, "not-found"),
                (cy, "DELETE", "/expenses/\(world.taxi.id)", nil, 404, "not-found"),
                (cy, "DELETE", "/settlements/\(world.payment.id)", nil, 404, "not-found"),
                (cy, "GET", "/settlements/\(world.payment.id)/history", nil, 404, "not-found"),
                (cy, "GET", "/friends/\(ada.id)", nil, 404, "not-a-friend"),
                (cy, "GET", "/friends/\(bob.id)", nil, 404, "not-a-friend"),
                (cy, "GET", "/friends/\(sam)", nil, 404, "not-a-friend"),
                (cy, "DELETE", "/friends/\(ada.id)", nil, 404, "not-a-friend"),
                (cy, "DELETE", "/friends/\(sam)", nil, 404, "not-a-friend"),
                (cy, "POST", "/contacts/\(sam)/link", cyByEmail, 404, "not-a-contact"),
                (cy, "POST", "/contacts/\(sam)/link-target", cyByEmail, 404, "not-a-contact"),
                (cy, "POST", "/expenses", draft(paidBy: ada.id, among: [ada.id, bob.id]), 403, "not-in-expense"),
                (cy, "POST", "/expenses", draft(paidBy: ada.id, among: [ada.id, bob.id, sam]), 403, "not-in-expense"),
                // A payment always has the signed-in user at one end: the request has no field
                // to name a payer, and one added is refused as unknown.
                (cy, "POST", "/settlements", settle(bob.id, extra: #","from":"\#(ada.id)""#), 400, "invalid-request"),
                (cy, "POST", "/settlements", settle(cy.id), 422, "invalid-settlement"),
                (dee, "GET", "/friends/\(ada.id)", nil, 404, "not-a-friend"),
                (dee, "DELETE", "/friends/\(ada.id)", nil, 404, "not-a-friend"),
                (dee, "GET", "/expenses/\(world.dinner.id)", nil, 404, "not-found"),
                (dee, "GET", "/expenses/\(world.dinner.id)/history", nil, 404, "not-found"),
                (dee, "DELETE", "/expenses/\(world.dinner.id)", nil, 404, "not-found"),
                (dee, "POST", "/contacts/\(sam)/link", #"{"by":"email","email":"dee@example.com"}"#, 404, "not-a-contact"),
                (dee, "DELETE", "/settlements/\(world.payment.id)", nil, 404, "not-found"),
                (dee, "GET", "/settlements/\(world.payment.id)/history", nil, 404, "not-found"),
                // Ids learnt somehow do not open anyone's ledger: an expense or a payment names
                // only the writer's friends and contacts (or, paying, someone they have a
                // balance with).
                (cy, "POST", "/expenses", draft(paidBy: cy.id, among: [cy.id, ada.id]), 422, "unknown-people"),
                (cy, "POST", "/expenses", draft(paidBy: cy.id, among: [cy.id, sam]), 422, "unknown-people"),
                (cy, "POST", "/expenses", draft(paidBy: bob.id, among: [cy.id]), 422, "unknown-people"),
                (cy, "POST", "/settlements", settle(ada.id), 422, "unknown-people"),
                (dee, "POST", "/expenses", draft(paidBy: dee.id, among: [dee.id, ada.id]), 422, "unknown-people"),
                (dee, "POST", "/settlements", settle(ada.id), 422, "unknown-people"),
                // Nor does a friend's: Sam is Ada's contact, not Bob's, though Bob shares the dinner with him.
                (bob, "POST", "/expenses", draft(paidBy: bob.id, among: [bob.id, sam]), 422, "unknown-people"),
                (bob, "PUT", "/expenses/\(world.dinner.id)", draft(paidBy: bob.id, among: [ada.id, bob.id, sam, cy.id]), 422, "unknown-people"),
            ]
            var answered: [String] = []
            var expected: [String] = []
            for attempt in attempts {
                // Changes to an expense say which version they were made from: the one it is at.
                let version = attempt.path.hasPrefix("/expenses/") && attempt.method != "GET" ? ["If-Match": #""1""#] : [:]
                let answer = try await server.raw(
                    attempt.method, attempt.path, token: attempt.who.token, body: attempt.body.map { Data($0.utf8) }, headers: version
                )
                let name = "\(attempt.who.user.displayName): \(attempt.method) \(attempt.path)"
                answered.append("\(name) -> \(answer.status) \(answer.problemCode ?? "(no problem) \(answer.text.prefix(200))")")
                expected.append("\(name) -> \(attempt.status) \(attempt.code ?? "")")
            }
            #expect(answered == expected)

            // What they can read of their own shows nothing of Ada's and Bob's.
            for who in [cy, dee] {
                let paths = [
                    "/expenses?limit=1000", "/deleted-expenses?limit=1000", "/settlements?limit=1000", "/balances", "/activity?limit=1000",
                    "/suggested-payments?currency=EUR", "/reports/spending", "/currencies", "/people/recent", "/friends",
                    "/people/\(ada.id)/shared-expenses", "/people/\(bob.id)/shared-expenses", "/people/\(sam)/shared-expenses",
                ]
                for path in paths {
                    let answer = try await server.raw("GET", path, token: who.token)
                    #expect(answer.status == 200, "\(who.user.displayName): GET \(path): \(answer)")
                    for id in world.privateIDs + [ada.id, bob.id] {
                        #expect(!answer.text.contains(id), "\(who.user.displayName): GET \(path) shows \(id): \(answer)")
                    }
                }
            }
            // A first pull shows neither of them anything of Ada's or Bob's: not even, to Dee, the
            // friendship that ended before her replica began.
            for who in [cy, dee] {
                let answer = try await server.raw("GET", "/sync/changes?limit=500", token: who.token)
                #expect(answer.status == 200, "\(who.user.displayName): a pull: \(answer)")
                #expect(answer.text.contains(#""kind":"requests""#), "\(answer)")
                for id in world.privateIDs + [ada.id, bob.id] {
                    #expect(!answer.text.contains(id), "\(who.user.displayName): a pull shows \(id): \(answer)")
                }
            }
            // Whom each may name: no one of Ada's for Cy; for Ada, her friend and her contact.
            let everyone = #"{"ids":["\#(ada.id)","\#(bob.id)","\#(cy.id)","\#(dee.id)","\#(sam)"]}"#
            let cysFriends = try await server.raw("POST", "/people/friends", token: cy.token, json: everyone)
            #expect(cysFriends.status == 200 && cysFriends.text == #"{"ids":[]}"#, "\(cysFriends)")
            let adasFriends = try await server.raw("POST", "/people/friends", token: ada.token, json: everyone)
            #expect(adasFriends.status == 200 && adasFriends.text == #"{"ids":[\#([bob.id, sam].sorted().map { "\"\($0)\"" }.joined(separator: ","))]}"#, "\(adasFriends)")
            // Emails and friend codes go to friends only: Cy learns neither Ada's nor Bob's (and so
            // cannot befriend them by the ids he knows); Ada sees herself and Bob, not Cy or Dee.
            let cysLookup = try await server.raw("POST", "/users/lookup", token: cy.token, json: everyone)
            #expect(cysLookup.status == 200 && cysLookup.text.contains(cy.user.email) && !cysLookup.text.contains(ada.user.email), "\(cysLookup)")
            #expect(!cysLookup.text.contains(bob.user.email) && !cysLookup.text.contains(ada.user.friendCode), "\(cysLookup)")
            let adasLookup = try await server.raw("POST", "/users/lookup", token: ada.token, json: everyone)
            #expect(adasLookup.status == 200 && adasLookup.text.contains(ada.user.email) && adasLookup.text.contains(bob.user.email), "\(adasLookup)")
            #expect(!adasLookup.text.contains(cy.user.email) && !adasLookup.text.contains(dee.user.email), "\(adasLookup)")
            // Someone else's contact has no name for them.
            let names = try await server.raw("POST", "/people/names", token: cy.token, json: #"{"ids":["\#(sam)"]}"#)
            #expect(names.status == 200 && names.text == #"{"names":[]}"#, "\(names)")

            #expect(try await world.everythingSeen(with: ada.token) == adaSaw)
            #expect(try await world.everythingSeen(with: bob.token) == bobSaw)
        }
    }

    @Test("after a block, both still see what they shared, and every change to it, payment, request or expense between them is refused")
    func blockedUsers() async throws {
        try await LiveServer.with { server in
            let world = try await World.make(on: server)
            let (ada, bob) = (world.ada, world.bob)
            // Bob, who shares the dinner and a payment with Ada, blocks her.
            #expect(try await server.raw("PUT", "/blocked/\(ada.id)", token: bob.token).status == 204)
            let (adaSaw, bobSaw) = (try await world.everythingSeen(with: ada.token), try await world.everythingSeen(with: bob.token))
            #expect(adaSaw["/balances"]?.contains(bob.id) == true && bobSaw["/balances"]?.contains(ada.id) == true)
            #expect(adaSaw["/friends"]?.contains(bob.id) == false && bobSaw["/friends"]?.contains(ada.id) == false)

            let lunch = #"{"description":"Lunch","amount":{"minorUnits":600,"currency":"EUR"},"day":"2026-11-22","category":"food","payers":[{"user":"$me","amount":{"minorUnits":600,"currency":"EUR"}}],"participants":["\#(ada.id)","\#(bob.id)"],"rule":{"mode":"equal"}}"#
            let settle = #"{"counterparty":"$other","paidBy":"me","amount":{"minorUnits":100,"currency":"EUR"},"day":"2026-11-22"}"#
            var answered: [String] = []
            var expected: [String] = []
            for (me, other) in [(ada, bob), (bob, ada)] {
                let blocker = me.id == bob.id
                let attempts: [(method: String, path: String, body: String?, status: Int, code: String)] = [
                    ("PUT", "/expenses/\(world.dinner.id)", lunch, 409, "blocked"),
                    ("DELETE", "/expenses/\(world.dinner.id)", nil, 409, "blocked"),
                    // Restoring names him again: they are not friends now.
                    ("POST", "/deleted-expenses/\(world.taxi.id)/restore", nil, 422, "unknown-people"),
                    ("DELETE", "/settlements/\(world.payment.id)", nil, 409, "blocked"),
                    ("POST", "/settlements", settle, 409, "blocked"),
                    ("POST", "/expenses", lunch, 422, "unknown-people"),
                    ("POST", "/friends", #"{"by":"email","email":"\#(other.user.email)"}"#, 409, blocker ? "blocked-by-you" : "not-taking-requests"),
                    ("POST", "/friend-lookup", #"{"by":"email","email":"\#(other.user.email)"}"#, 409, blocker ? "blocked-by-you" : "not-taking-requests"),
                    ("POST", "/friend-requests/\(other.id)/accept", nil, 404, "no-request"),
                    ("GET", "/friends/\(other.id)", nil, 404, "not-a-friend"),
                ]
                for attempt in attempts {
                    let version = attempt.path.hasPrefix("/expenses/") ? ["If-Match": #""\#(world.dinner.version)""#] : [:]
                    let body = attempt.body.map { $0.replacingOccurrences(of: "$me", with: me.id).replacingOccurrences(of: "$other", with: other.id) }
                    let answer = try await server.raw(attempt.method, attempt.path, token: me.token, body: body.map { Data($0.utf8) }, headers: version)
                    let name = "\(me.user.displayName): \(attempt.method) \(attempt.path)"
                    answered.append("\(name) -> \(answer.status) \(answer.problemCode ?? "(no problem) \(answer.text.prefix(200))")")
                    expected.append("\(name) -> \(attempt.status) \(attempt.code)")
                }
            }
            #expect(answered == expected)
            #expect(try await world.everythingSeen(with: ada.token) == adaSaw)
            #expect(try await world.everythingSeen(with: bob.token) == bobSaw)
            // How what they shared came to be stays theirs to read.
            for who in [ada, bob] {
                #expect(try await server.raw("GET", "/expenses/\(world.dinner.id)/history", token: who.token).status == 200)
                #expect(try await server.raw("GET", "/settlements/\(world.payment.id)/history", token: who.token).status == 200)
            }
            // The one blocked cannot lift it; the one who blocked can, and requests pass again.
            #expect(try await server.raw("DELETE", "/blocked/\(bob.id)", token: ada.token).status == 204)
            #expect(try await server.raw("POST", "/friends", token: ada.token, json: #"{"by":"email","email":"bob@example.com"}"#).problemCode == "not-taking-requests")
            #expect(try await server.raw("DELETE", "/blocked/\(ada.id)", token: bob.token).status == 204)
            #expect(try await server.raw("POST", "/friends", token: ada.token, json: #"{"by":"email","email":"bob@example.com"}"#).status == 201)
        }
    }

    @Test("every look-up by friend code or email answers the id and name, never the email")
    func lookupsShowNoEmail() async throws {
        try await LiveServer.with { server in
            let world = try await World.make(on: server)
            let dee = world.dee.user
            let byCode = #"{"by":"friend-code","friendCode":"\#(dee.friendCode)"}"#
            let byEmail = #"{"by":"email","email":"dee@example.com"}"#
            let lookups: [(String, String)] = [
                ("/friend-lookup", byCode), ("/friend-lookup", byEmail),
                ("/users/by-friend-code", #"{"friendCode":"\#(dee.friendCode)"}"#), ("/users/by-email", #"{"email":"DEE@example.com"}"#),
                ("/contacts/\(world.sam)/link-target", byCode), ("/contacts/\(world.sam)/link-target", byEmail),
            ]
            for (path, body) in lookups {
                let answer = try await server.raw("POST", path, token: world.ada.token, json: body)
                #expect(answer.status == 200, "\(path) \(body): \(answer)")
                let fields = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: String]
                #expect(fields == ["id": dee.id, "name": "Dee"], "\(path) \(body): \(answer)")
                #expect(!answer.text.lowercased().contains("dee@example.com"), "\(path) \(body)")
            }
        }
    }

    // MARK: - Claims

    @Test("signing up with a contact's email takes nothing over: the contact's owner is asked, and only their acceptance links it")
    func contactsClaimedByEmail() async throws {
        try await LiveServer.with { server in
            let world = try await World.make(on: server)
            let (adaSaw, bobSaw) = (try await world.everythingSeen(with: world.ada.token), try await world.everythingSeen(with: world.bob.token))
            let eve = try await server.signUp("Eve", email: "sam@example.com")
            #expect(try await eve.client.claimContacts().ok.body.json.ids == [world.ada.id])
            // Eve sees nothing of Sam's: no expense, no balance, no friend.
            #expect(try await eve.client.listExpenses().ok.body.json.expenses.isEmpty)
            #expect(try await eve.client.listBalances().ok.body.json.balances.isEmpty)
            #expect(try await eve.client.listFriends().ok.body.json.friends.isEmpty)
            let claim = try await world.ada.client.listFriendRequests().ok.body.json.incoming
            #expect(claim.map(\.person.id) == [eve.id] && claim.first?.contactName == "Sam Park" && claim.first?.claimedEmail == "sam@example.com")
            // Ada declines: Sam stays her contact, nothing she or Bob sees changed, and Eve's
            // next claim asks nobody.
            _ = try await world.ada.client.dropFriendRequest(path: .init(personId: eve.id)).noContent
            #expect(try await eve.client.claimContacts().ok.body.json.ids.isEmpty)
            guard case .contact(let sam) = try await world.ada.client.getFriend(path: .init(friendId: world.sam)).ok.body.json else {
                Issue.record("Sam is no longer Ada's contact")
                return
            }
            #expect(sam.id == world.sam)
            #expect(try await world.everythingSeen(with: world.ada.token) == adaSaw)
            #expect(try await world.everythingSeen(with: world.bob.token) == bobSaw)
        }
    }
}
