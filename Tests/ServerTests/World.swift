import FlowsAPI
import Foundation
import Testing

/// A few people with a shared history on a test server, for the tests of who may see and
/// change what.
///
/// Ada and Bob are friends. Ada has a contact, Sam. Ada paid a dinner of 90.00 EUR among the
/// three of them, and Bob commented on it; it repeats monthly. Bob paid a taxi they shared,
/// which Ada deleted; Bob paid Ada back 10.00 EUR.
/// Cy is a stranger to all of them; Dee was Ada's friend and was removed. Ada, Bob and Sam
/// are in Ada's group "Trip", which has nothing in it yet.
struct World: Sendable {
    let server: LiveServer
    let ada: Member
    let bob: Member
    let cy: Member
    let dee: Member
    /// Ada's contact.
    let sam: String
    let dinner: Components.Schemas.Expense
    /// Bob's, on the dinner.
    let comment: Components.Schemas.Comment
    /// The dinner, repeating monthly.
    let series: Components.Schemas.ExpenseSeries
    /// Deleted by Ada.
    let taxi: Components.Schemas.Expense
    /// Bob paid Ada.
    let payment: Components.Schemas.Settlement
    /// Ada's group, with Bob and Sam.
    let trip: Components.Schemas.Group

    static func make(on server: LiveServer) async throws -> World {
        let ada = try await server.signUp("Ada")
        let bob = try await server.signUp("Bob")
        let cy = try await server.signUp("Cy")
        let dee = try await server.signUp("Dee")
        try await ada.befriend(bob)
        try await ada.befriend(dee)
        _ = try await ada.client.removeFriend(path: .init(friendId: dee.id)).noContent
        guard case .contact(let sam) = try await ada.client.addContact(body: .json(.init(name: "Sam Park", email: "sam@example.com"))).created.body.json
        else { throw ServerTestError("Sam is a contact") }
        let dinner = try await ada.client.addExpense(body: .json(.dinner(9_000, paidBy: ada.id, among: [ada.id, bob.id, sam.id]))).created.body.json
        let comment = try await bob.client.addComment(path: .init(expenseId: dinner.id), body: .json(.init(text: "Was it 90 or 96?"))).created.body.json
        let series = try await ada.client.repeatExpense(path: .init(expenseId: dinner.id), body: .json(.init(frequency: .init(kind: .monthly, day: 20))))
            .created.body.json
        let taxi = try await bob.client.addExpense(body: .json(.dinner(2_000, paidBy: bob.id, among: [ada.id, bob.id], description: "Taxi")))
            .created.body.json
        _ = try await ada.client.deleteExpense(path: .init(expenseId: taxi.id), headers: .init(ifMatch: #""\#(taxi.version)""#)).noContent
        let payment = try await bob.client.settleUp(
            body: .json(.init(counterparty: ada.id, paidBy: .me, amount: .init(minorUnits: 1_000, currency: "EUR"), day: "2026-11-21"))
        ).created.body.json
        let trip = try await ada.client.createGroup(
            body: .json(.init(name: "Trip", kind: .trip, currency: "EUR", simplifyDebts: true, members: [bob.id, sam.id]))
        ).created.body.json
        return World(
            server: server, ada: ada, bob: bob, cy: cy, dee: dee, sam: sam.id, dinner: dinner, comment: comment, series: series, taxi: taxi,
            payment: payment, trip: trip
        )
    }

    /// A new session of someone signed up here (password "correct horse").
    func signIn(_ member: Member) async throws -> String {
        try await server.client().signIn(body: .json(.init(email: member.user.email, password: "correct horse"))).ok.body.json.token
    }

    /// Everything `token`'s user can read of their own data, each answer's body as the server
    /// wrote it (keys sorted): before and after an attempt, they must be the same.
    func everythingSeen(with token: String) async throws -> [String: String] {
        let paths = [
            "/me", "/me/avatar", "/preferences", "/friends", "/expenses?limit=1000", "/deleted-expenses?limit=1000",
            "/settlements?limit=1000", "/balances", "/suggested-payments?currency=EUR", "/activity?limit=1000", "/reports/spending",
            "/currencies", "/people/recent", "/friend-requests", "/groups", "/groups?archived=true", "/group-balances",
            "/series?after=2026-11-22",
        ]
        var seen: [String: String] = [:]
        for path in paths {
            let answer = try await server.raw("GET", path, token: token)
            try #require(answer.status == 200, "GET \(path): \(answer)")
            seen[path] = answer.text
        }
        return seen
    }

    /// The ids a stranger must never be shown: the expenses and the payment, and Sam.
    var privateIDs: [String] { [dinner.id, taxi.id, payment.id, sam, trip.id, comment.id, series.id] }
}

/// One operation of the contract as a test calls it: a plausible valid request.
struct Call: Sendable {
    let id: String
    let method: String
    /// The path as the document writes it, with its `{parameters}`.
    let template: String
    var query = ""
    /// The JSON body, with `$ada`, `$bob`, `$sam`, `$dinner`, `$adaCode` and `$unique` standing
    /// for the world's values.
    var body: String?
    /// Keys of the body's top-level object that may be left out (or be null).
    var optionalKeys: Set<String> = []
    /// Path parameters taken from other values than the defaults (`$bob` for a person,
    /// `$sam` for a contact, `$dinner` for an expense, `$payment` for a payment).
    var parameters: [String: String] = [:]
    /// Header fields besides the token (`If-Match`), with the world's values filled in.
    var headers: [String: String] = [:]

    /// The path with its parameters and query filled in from `world`.
    func path(in world: World) -> String {
        var path = template
        let defaults = ["userId": "$bob", "friendId": "$bob", "personId": "$bob", "contactId": "$sam", "expenseId": "$dinner", "settlementId": "$payment", "groupId": "$trip",
            "commentId": "$comment", "seriesId": "$series",
        ]
        for (name, value) in defaults.merging(parameters, uniquingKeysWith: { $1 }) {
            path = path.replacingOccurrences(of: "{\(name)}", with: world.fill(value))
        }
        return path + (query.isEmpty ? "" : "?" + query)
    }

    func body(in world: World) -> String? { body.map(world.fill) }

    func headers(in world: World) -> [String: String] { headers.mapValues(world.fill) }
}

extension World {
    /// `text` with the world's values in place of `$ada` and the others.
    func fill(_ text: String) -> String {
        // Longest names first: `$adaCode` before `$ada`.
        let values = [
            ("$dinnerVersion", String(dinner.version)), ("$adaCode", ada.user.friendCode), ("$ada", ada.id), ("$bob", bob.id), ("$sam", sam), ("$dinner", dinner.id), ("$taxi", taxi.id),
            ("$payment", payment.id), ("$trip", trip.id), ("$comment", comment.id), ("$series", series.id), ("$unique", UUID().uuidString.lowercased().prefix(12).description),
        ]
        return values.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }
}

/// Every operation of the contract, called as a client that means it would.
/// ``checkCallsCoverTheContract()`` reads the document and fails when one is missing here.
let contractCalls: [Call] = {
    let draft = #"""
        {"description":"Lunch","amount":{"minorUnits":1200,"currency":"EUR"},"day":"2026-11-21","category":"food","payers":[{"user":"$ada","amount":{"minorUnits":1200,"currency":"EUR"}}],"participants":["$ada","$bob"],"rule":{"mode":"equal"},"note":"by the lake"}
        """#
    let bobByEmail = #"{"by":"email","email":"bob@example.com"}"#
    let ids = #"{"ids":["$ada","$bob","$sam"]}"#
    return [
        // Accounts
        Call(id: "signUp", method: "POST", template: "/accounts", body: #"{"email":"new-$unique@example.com","displayName":"Newcomer","password":"correct horse"}"#),
        Call(id: "signIn", method: "POST", template: "/sessions", body: #"{"email":"ada@example.com","password":"correct horse"}"#),
        Call(id: "getCurrentSession", method: "GET", template: "/sessions/current"),
        Call(id: "signOut", method: "DELETE", template: "/sessions/current"),
        Call(id: "getCurrentUser", method: "GET", template: "/me"),
        Call(id: "changeDisplayName", method: "PUT", template: "/me/display-name", body: #"{"displayName":"Mallory"}"#),
        Call(id: "changeEmail", method: "PUT", template: "/me/email", body: #"{"email":"mallory@example.com","password":"correct horse"}"#),
        Call(id: "changePassword", method: "PUT", template: "/me/password", body: #"{"currentPassword":"correct horse","newPassword":"battery staple"}"#),
        Call(id: "verifyEmail", method: "POST", template: "/me/email-verification", body: #"{"code":"123456"}"#),
        Call(id: "sendVerificationCode", method: "POST", template: "/me/email-verification/code"),
        Call(id: "listSessions", method: "GET", template: "/me/sessions"),
        Call(id: "endSession", method: "DELETE", template: "/me/sessions/{sessionId}", parameters: ["sessionId": "0123456789abcdef"]),
        Call(id: "endOtherSessions", method: "DELETE", template: "/me/other-sessions"),
        Call(id: "getMyAvatar", method: "GET", template: "/me/avatar"),
        Call(id: "changeAvatar", method: "PUT", template: "/me/avatar", body: #"{"kind":"initials","colour":"red"}"#),
        Call(id: "listUsers", method: "POST", template: "/users/lookup", body: ids),
        Call(id: "listExistingUsers", method: "POST", template: "/users/existing", body: ids),
        Call(id: "findUserByFriendCode", method: "POST", template: "/users/by-friend-code", body: #"{"friendCode":"$adaCode"}"#),
        Call(id: "findUserByEmail", method: "POST", template: "/users/by-email", body: #"{"email":"ada@example.com"}"#),
        Call(id: "getUserAvatar", method: "GET", template: "/users/{userId}/avatar"),
        // Friends
        Call(id: "listFriends", method: "GET", template: "/friends"),
        Call(id: "addFriend", method: "POST", template: "/friends", body: bobByEmail),
        Call(id: "findFriend", method: "POST", template: "/friend-lookup", body: bobByEmail),
        Call(id: "listFriendRequests", method: "GET", template: "/friend-requests"),
        Call(id: "acceptFriendRequest", method: "POST", template: "/friend-requests/{personId}/accept"),
        Call(id: "dropFriendRequest", method: "DELETE", template: "/friend-requests/{personId}"),
        Call(id: "blockPerson", method: "PUT", template: "/blocked/{personId}"),
        Call(id: "unblockPerson", method: "DELETE", template: "/blocked/{personId}"),
        Call(id: "getFriend", method: "GET", template: "/friends/{friendId}"),
        Call(id: "removeFriend", method: "DELETE", template: "/friends/{friendId}"),
        Call(id: "addContact", method: "POST", template: "/contacts", body: #"{"name":"Kim Lee","email":"kim@example.com"}"#, optionalKeys: ["email"]),
        Call(id: "renameContact", method: "PUT", template: "/contacts/{contactId}/name", body: #"{"name":"Sam Lee"}"#),
        Call(id: "claimContacts", method: "POST", template: "/contacts/claim"),
        Call(id: "linkContact", method: "POST", template: "/contacts/{contactId}/link", body: bobByEmail),
        Call(id: "previewContactLink", method: "POST", template: "/contacts/{contactId}/link-target", body: bobByEmail),
        Call(id: "listFriendsAmong", method: "POST", template: "/people/friends", body: ids),
        Call(id: "listNames", method: "POST", template: "/people/names", body: ids),
        // Expenses
        Call(id: "listExpenses", method: "GET", template: "/expenses", query: "offset=0&limit=10"),
        Call(id: "addExpense", method: "POST", template: "/expenses", body: draft, optionalKeys: ["note"]),
        Call(id: "getExpense", method: "GET", template: "/expenses/{expenseId}"),
        Call(id: "getExpenseHistory", method: "GET", template: "/expenses/{expenseId}/history"),
        Call(id: "editExpense", method: "PUT", template: "/expenses/{expenseId}", body: draft, optionalKeys: ["note"], headers: ["If-Match": #""$dinnerVersion""#]),
        Call(id: "deleteExpense", method: "DELETE", template: "/expenses/{expenseId}", headers: ["If-Match": #""$dinnerVersion""#]),
        Call(id: "listDeletedExpenses", method: "GET", template: "/deleted-expenses", query: "limit=10"),
        Call(id: "restoreExpense", method: "POST", template: "/deleted-expenses/{expenseId}/restore", parameters: ["expenseId": "$taxi"]),
        Call(id: "listSharedExpenses", method: "GET", template: "/people/{personId}/shared-expenses", query: "limit=10"),
        Call(id: "listRecentPeople", method: "GET", template: "/people/recent"),
        Call(id: "listSettlements", method: "GET", template: "/settlements", query: "offset=0"),
        Call(
            id: "settleUp", method: "POST", template: "/settlements",
            body: #"{"counterparty":"$bob","paidBy":"counterparty","amount":{"minorUnits":500,"currency":"EUR"},"day":"2026-11-22"}"#
        ),
        Call(
            id: "convertBalance", method: "POST", template: "/conversions",
            body: #"{"counterparty":"$bob","balance":{"minorUnits":500,"currency":"EUR"},"rate":{"base":"EUR","quote":"JPY","rate":"162.51"},"source":"agreed","day":"2026-11-22"}"#
        ),
        Call(id: "getSettlement", method: "GET", template: "/settlements/{settlementId}"),
        Call(id: "undoSettlement", method: "DELETE", template: "/settlements/{settlementId}"),
        Call(
            id: "repeatExpense", method: "POST", template: "/expenses/{expenseId}/series", body: #"{"frequency":{"kind":"weeks","every":2},"endCount":5}"#,
            optionalKeys: ["endDay", "endCount"]
        ),
        Call(id: "getExpenseSeries", method: "GET", template: "/expenses/{expenseId}/series"),
        Call(id: "listSeries", method: "GET", template: "/series", query: "after=2026-11-22"),
        Call(id: "createDueOccurrences", method: "POST", template: "/due-occurrences", body: #"{"through":"2026-11-22"}"#),
        Call(id: "editSeries", method: "PUT", template: "/series/{seriesId}", body: draft, optionalKeys: ["note"]),
        Call(id: "stopSeries", method: "POST", template: "/series/{seriesId}/stop", body: #"{"after":"2026-12-31"}"#),
        Call(id: "listComments", method: "GET", template: "/expenses/{expenseId}/comments"),
        Call(id: "addComment", method: "POST", template: "/expenses/{expenseId}/comments", body: #"{"text":"Was it 30 or 36?"}"#),
        Call(id: "deleteComment", method: "DELETE", template: "/expenses/{expenseId}/comments/{commentId}"),
        Call(id: "getPaymentHistory", method: "GET", template: "/settlements/{settlementId}/history"),
        Call(id: "listBalances", method: "GET", template: "/balances"),
        Call(id: "listSuggestedPayments", method: "GET", template: "/suggested-payments", query: "currency=EUR"),
        Call(id: "listActivity", method: "GET", template: "/activity", query: "limit=5"),
        Call(id: "getSpendingReport", method: "GET", template: "/reports/spending", query: "from=2026-11-01&through=2026-11-30"),
        Call(id: "listCurrencies", method: "GET", template: "/currencies"),
        // Groups
        Call(id: "listGroups", method: "GET", template: "/groups", query: "archived=false"),
        Call(
            id: "createGroup", method: "POST", template: "/groups",
            body: #"{"name":"Flat $unique","kind":"home","currency":"EUR","simplifyDebts":true,"members":["$bob"]}"#
        ),
        Call(id: "getGroup", method: "GET", template: "/groups/{groupId}"),
        Call(
            id: "updateGroup", method: "PUT", template: "/groups/{groupId}/settings",
            body: #"{"name":"Kyoto trip","kind":"trip","currency":"JPY","simplifyDebts":false}"#
        ),
        Call(id: "addGroupMembers", method: "POST", template: "/groups/{groupId}/members", body: #"{"ids":["$bob"]}"#),
        Call(id: "removeGroupMember", method: "DELETE", template: "/groups/{groupId}/members/{personId}", parameters: ["personId": "$sam"]),
        Call(id: "setGroupArchived", method: "PUT", template: "/groups/{groupId}/archived", body: #"{"archived":true}"#),
        Call(id: "listGroupDebts", method: "GET", template: "/groups/{groupId}/debts"),
        Call(id: "listGroupSuggestedPayments", method: "GET", template: "/groups/{groupId}/suggested-payments", query: "currency=EUR"),
        Call(id: "listGroupExpenses", method: "GET", template: "/groups/{groupId}/expenses", query: "limit=5"),
        Call(id: "listGroupSettlements", method: "GET", template: "/groups/{groupId}/settlements", query: "limit=5"),
        Call(id: "listGroupBalances", method: "GET", template: "/group-balances"),
        Call(id: "getGroupTotals", method: "GET", template: "/groups/{groupId}/totals"),
        // Preferences
        Call(id: "getPreferences", method: "GET", template: "/preferences"),
        Call(id: "updatePreferences", method: "PUT", template: "/preferences", body: #"{"theme":"light","defaultCurrency":"JPY"}"#),
        Call(id: "watchPreferences", method: "GET", template: "/preferences/changes"),
        // Sync
        Call(id: "pullChanges", method: "GET", template: "/sync/changes", query: "limit=100"),
        Call(
            id: "pushChanges", method: "POST", template: "/sync/push",
            body: #"{"operations":[{"key":"k-$unique","operation":"addContact","body":{"name":"Kim $unique"}}]}"#
        ),
        Call(id: "resendChanges", method: "POST", template: "/sync/again", body: #"{"entities":[{"kind":"expense","id":"$dinner"}]}"#),
        // Health
        Call(id: "checkHealth", method: "GET", template: "/health"),
        Call(id: "checkReadiness", method: "GET", template: "/ready"),
    ]
}()

/// The table against the document: every operation once, by its method and path.
func checkCallsCoverTheContract() throws -> [ContractOperation] {
    let operations = try Contract.operations()
    let calls = Dictionary(grouping: contractCalls, by: \.id)
    for operation in operations {
        let call = calls[operation.id]?.first
        #expect(call != nil, "\(operation) is not in the table of calls (World.swift): add a plausible request for it")
        if let call {
            #expect(call.method == operation.method && call.template == operation.path, "the table calls \(operation.id) as \(call.method) \(call.template)")
        }
    }
    let documented = Set(operations.map(\.id))
    for call in contractCalls where !documented.contains(call.id) {
        Issue.record("the table calls \(call.id), which the contract does not have")
    }
    #expect(calls.values.allSatisfy { $0.count == 1 }, "an operation is in the table twice")
    return operations
}
