@testable import FlowsServer
import Foundation
import Primitives
import Sync
import Synchronization
import Testing

/// The next page of a pull, made while the one before travels (``PagesAhead``).
@Suite(.timeLimit(.minutes(1)))
struct PagesAheadTests {
    private static let ada = UserID(rawValue: "ada")
    private static let bob = UserID(rawValue: "bob")

    /// Pages of a pull of `last` pages, each answered after its cursor ("0", "1", …), noting
    /// each page it makes; `failing` fails once at that cursor.
    private final class Pages: Sendable {
        let last: Int
        private let state: Mutex<(made: [String], failing: Set<String>)>

        init(last: Int, failing: Set<String> = []) {
            self.last = last
            state = Mutex(([], failing))
        }

        var made: [String] { state.withLock { $0.made } }

        /// Waits until the page after `cursor` was made `times` times.
        func made(after cursor: String, times: Int) async throws {
            while made.filter({ $0 == cursor }).count < times { try await Task.sleep(for: .milliseconds(2)) }
        }

        func make(after cursor: SyncCursor?, limit: Int = 500) throws -> PagesAhead.Written {
            let index = cursor.flatMap { Int($0.text) } ?? 0
            let failed = state.withLock { state in
                state.made.append(cursor?.text ?? "start")
                return state.failing.remove(cursor?.text ?? "start") != nil
            }
            if failed { throw SyncError.storeUnavailable("down for a moment") }
            return PagesAhead.Written(bytes: Data("page \(index + 1)\(limit == 500 ? "" : " of \(limit)")".utf8), cursor: SyncCursor(String(index + 1)), more: index + 1 < last)
        }
    }

    private static func pull(_ pages: Pages, from ahead: PagesAhead, for user: UserID = ada, limit: Int = 500) async throws -> [String] {
        var answered: [String] = []
        var cursor: SyncCursor?
        while true {
            let page = try await ahead.page(for: user, after: cursor, limit: limit) { try pages.make(after: $0) }
            answered.append(String(decoding: page.bytes, as: UTF8.self))
            guard page.more else { return answered }
            cursor = page.cursor
        }
    }

    @Test func eachPageIsMadeOnceAheadOfItsRequest() async throws {
        let pages = Pages(last: 4)
        let ahead = PagesAhead()
        #expect(try await Self.pull(pages, from: ahead) == ["page 1", "page 2", "page 3", "page 4"])
        // The first by its request, each after it ahead, and none past the last.
        #expect(pages.made == ["start", "1", "2", "3"])
        #expect(ahead.count == 0)
    }

    @Test func aPageThatFailedAheadIsMadeAgainWhenAskedFor() async throws {
        let pages = Pages(last: 3, failing: ["1"])
        #expect(try await Self.pull(pages, from: PagesAhead()) == ["page 1", "page 2", "page 3"])
        #expect(pages.made == ["start", "1", "1", "2"])
    }

    @Test func aRequestItDoesNotFitReadsItsOwnPage() async throws {
        let pages = Pages(last: 3)
        let ahead = PagesAhead()
        _ = try await ahead.page(for: Self.ada, after: nil, limit: 500) { try pages.make(after: $0) }
        try await pages.made(after: "1", times: 1)
        // The same cursor, fewer changes: the page made ahead is not the one asked for.
        let page = try await ahead.page(for: Self.ada, after: SyncCursor("1"), limit: 100) { try pages.make(after: $0, limit: 100) }
        #expect(String(decoding: page.bytes, as: UTF8.self) == "page 2 of 100")
        #expect(pages.made.filter { $0 == "1" }.count == 2)
    }

    @Test func aPageNotAskedForInTimeIsMadeAgain() async throws {
        let clock = Mutex(Date(timeIntervalSince1970: 0))
        let ahead = PagesAhead(lifetime: 30, now: { clock.withLock { $0 } })
        let pages = Pages(last: 3)
        _ = try await ahead.page(for: Self.ada, after: nil, limit: 500) { try pages.make(after: $0) }
        try await pages.made(after: "1", times: 1)
        clock.withLock { $0 += 31 }
        _ = try await ahead.page(for: Self.ada, after: SyncCursor("1"), limit: 500) { try pages.make(after: $0) }
        #expect(pages.made.filter { $0 == "1" }.count == 2)
    }

    @Test func pagesAreMadeAheadForAtMostItsCapacityOfUsers() async throws {
        let ahead = PagesAhead(capacity: 1)
        let (adas, bobs) = (Pages(last: 3), Pages(last: 3))
        _ = try await ahead.page(for: Self.ada, after: nil, limit: 500) { try adas.make(after: $0) }
        _ = try await ahead.page(for: Self.bob, after: nil, limit: 500) { try bobs.make(after: $0) }
        #expect(ahead.count == 1)
        // Bob's pull goes on all the same, each page read by its request.
        #expect(try await Self.pull(bobs, from: ahead, for: Self.bob).count == 3)
        #expect(try await Self.pull(adas, from: ahead).count == 3)
    }
}
