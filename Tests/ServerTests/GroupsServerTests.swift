import FlowsAPI
import Foundation
import Testing

/// Groups over HTTP, on each store: what members may do, and what the wrong user, someone not
/// in the group and a removed member are told.
@Suite(.timeLimit(.minutes(2)))
struct GroupsServerTests {
    @Test("members share, settle and leave a group over HTTP; a stranger and a removed member find no group, and nothing of it changes for them")
    func membersAndOthers() async throws {
        try await LiveServer.onEachStore { server in
            let world = try await World.make(on: server)
            let (ada, bob, cy, trip) = (world.ada, world.bob, world.cy, world.trip.id)
            let inTrip = #"""
                {"description":"Ramen","amount":{"minorUnits":3000,"currency":"EUR"},"day":"2026-11-22","category":"food","payers":[{"user":"\#(bob.id)","amount":{"minorUnits":3000,"currency":"EUR"}}],"participants":["\#(bob.id)","\#(world.sam)"],"rule":{"mode":"equal"},"group":"\#(trip)"}
                """#
            // Bob is not Sam's owner, nor his friend: within Ada's trip he may share with him.
            let ramen = try await server.raw("POST", "/expenses", token: bob.token, json: inTrip)
            #expect(ramen.status == 201, "\(ramen)")
            #expect(ramen.object?["group"] as? String == trip)
            let debts = try await server.raw("GET", "/groups/\(trip)/debts", token: ada.token)
            #expect(debts.status == 200 && debts.text.contains(world.sam), "\(debts)")

            // Cy is in no group of theirs: every group path is "not found", and he names no one through it.
            for path in ["/groups/\(trip)", "/groups/\(trip)/debts", "/groups/\(trip)/expenses", "/groups/\(trip)/settlements"] {
                let answer = try await server.raw("GET", path, token: cy.token)
                #expect(answer.status == 404, "\(path): \(answer)")
                #expect(["group-not-found", "not-in-group"].contains(answer.problemCode ?? ""), "\(path): \(answer)")
            }
            let cysExpense = inTrip.replacingOccurrences(of: bob.id, with: cy.id)
            #expect(try await server.raw("POST", "/expenses", token: cy.token, json: cysExpense).problemCode == "not-in-group")
            #expect(try await server.raw("PUT", "/groups/\(trip)/archived", token: cy.token, json: #"{"archived":true}"#).status == 404)
            #expect(try await server.raw("GET", "/groups", token: cy.token).text == #"{"groups":[]}"#)

            // Bob leaves only once settled; then the group is gone for him, and his old answers with it.
            let leaving = try await server.raw("DELETE", "/groups/\(trip)/members/\(bob.id)", token: bob.token)
            #expect(leaving.status == 409 && leaving.problemCode == "member-not-settled", "\(leaving)")
            let payment = #"{"counterparty":"\#(world.sam)","paidBy":"counterparty","amount":{"minorUnits":1500,"currency":"EUR"},"day":"2026-11-23","group":"\#(trip)"}"#
            // Sam (Ada's contact, within the trip Bob's fellow member) paid Bob back: Bob records it there.
            #expect(try await server.raw("POST", "/settlements", token: bob.token, json: payment).status == 201)
            let left = try await server.raw("DELETE", "/groups/\(trip)/members/\(bob.id)", token: bob.token)
            #expect(left.status == 200, "\(left)")
            #expect(try await server.raw("GET", "/groups/\(trip)", token: bob.token).problemCode == "group-not-found")
            #expect(try await server.raw("GET", "/groups/\(trip)/expenses", token: bob.token).problemCode == "not-in-group")
            #expect(try await server.raw("POST", "/expenses", token: bob.token, json: inTrip).problemCode == "not-in-group")
            // The expense he was in is still his.
            let id = try #require(ramen.object?["id"] as? String)
            #expect(try await server.raw("GET", "/expenses/\(id)", token: bob.token).status == 200)
        }
    }
}
