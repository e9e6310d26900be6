import Accounts
import FlowKit
import FlowTestSupport
import FriendRequestsFlow
import Friends
import Testing

/// A leaf flow under Friends: the requests waiting both ways, answered.
@Suite("FriendRequestsFlow")
struct FriendRequestsFlowTests {
    let fixture = Fixture()

    /// Ada signed in, with a request from Bob waiting.
    private func askedByBob() async throws -> (ada: User, bob: User) {
        let bob = try await fixture.accounts.signUp(email: "bob@example.com", displayName: "Bob Stone", password: "correct horse")
        let ada = try await fixture.existingUser(signedIn: true)
        _ = try await fixture.friends.add(.email("ada@example.com"), by: bob.id)
        return (ada, bob)
    }

    @Test("a request taken back while the screen is open: accepting it says so, and the list is read again")
    func takenBackMeanwhile() async throws {
        let (ada, bob) = try await askedByBob()
        let dependencies = fixture
        let flow = FlowTest { router in FriendRequestsFlow(user: ada, dependencies: dependencies, router: router) }
        await flow.expectText("Bob Stone, asked 2027-01-15")
        try await fixture.friends.dropRequest(with: ada.id, by: bob.id)
        await flow.tap("accept")
        await flow.expectError(nil, "No friend request waits between you and that person.")
        await flow.expectText("No friend requests: nobody is asking you, and you are asking nobody.")
        #expect(try await fixture.friends.friends(of: ada.id).isEmpty)
        await flow.back()
        #expect(await flow.result(as: FriendRequestsFlow.FlowResult.self) == .cancelled)
    }

    @Test("declining leaves no friend and no request; the result says something changed, with no one accepted")
    func decline() async throws {
        let (ada, bob) = try await askedByBob()
        let dependencies = fixture
        let flow = FlowTest { router in FriendRequestsFlow(user: ada, dependencies: dependencies, router: router) }
        await flow.expectText("[x] Bob Stone, asked 2027-01-15")
        await flow.tap("decline")
        await flow.expectText("Declined Bob Stone's request.")
        #expect(try await fixture.friends.requests(of: bob.id) == FriendRequests())
        await flow.back()
        #expect(await flow.result(as: FriendRequestsFlow.FlowResult.self) == .answered(accepted: []))
    }
}
