import Expenses
import ExpensesRemote
import FlowsWire
import Friends
import FriendsRemote
import Groups
import GroupsRemote
import Primitives
import Sync
import SyncRemote
import Testing

/// Each area's errors as the contract's refusals, and back: what the server answers for an
/// error, the client reads as the same error.
struct ProblemTableTests {
    /// `error` through the table: as flows-server answers it, then as the client reads it.
    private func roundTrip<Failure: Error>(_ error: Failure, _ table: ProblemTable<Failure>) -> Failure {
        let problem = table.problem(error)
        return table.failure(.refused(status: Int(problem.status.code), problem: problem.problem, retryAfter: nil))
    }

    @Test("friends' errors come back as they went, the limits and whose they are with them")
    func friends() throws {
        let cy = try DisplayName("Cy")
        let errors: [FriendsError] = [
            .yourself, .alreadyFriends(cy), .unknownEmail("zed@example.com"), .emailHasAccount("cy@example.com"),
            .contactEmailTaken("sam@example.com"), .contactNameTaken(cy), .notAFriend, .notAContact, .cannotLink("In one expense together."),
            .tooManyFriends(nil, limit: 5_000), .tooManyFriends(cy, limit: 5_000), .tooManyContacts(limit: 5_000),
            .invalidName(.invisibleCharacters), .invalidEmail(.shape),
        ]
        for error in errors { #expect(roundTrip(error, FriendsAPI.problems) == error) }
    }

    @Test("groups' errors come back as they went, the group and the member with them")
    func groups() {
        let ski = GroupID(rawValue: "ski")
        let bob = UserID(rawValue: "bob")
        let errors: [GroupsError] = [
            .notFound(ski), .unknownPeople([bob]), .notMember(bob), .memberNotSettled(bob, balances: [Money(minorUnits: -500, currency: .eur)]),
            .groupNotSettled, .lastMember, .archived, .idTaken(ski), .invalid(.tooManyMembers),
        ]
        for error in errors { #expect(roundTrip(error, GroupsAPI.problems) == error) }
    }

    @Test("a draft's problems come back as they went, the new text and people rules with them")
    func drafts() {
        let errors: [ExpensesError] = [
            .invalid(.description), .invalid(.descriptionControlCharacters), .invalid(.descriptionInvisibleCharacters), .invalid(.note),
            .invalid(.tooManyPeople), .invalid(.noPayer), .notInExpense,
        ]
        for error in errors { #expect(roundTrip(error, ExpensesAPI.problems) == error) }
    }

    @Test("a pull's errors come back as they went")
    func sync() {
        let errors: [SyncError] = [.invalidCursor, .cursorExpired, .tooManyOperations(limit: 100), .signedOut]
        for error in errors { #expect(roundTrip(error, SyncAPI.problems) == error) }
    }
}
