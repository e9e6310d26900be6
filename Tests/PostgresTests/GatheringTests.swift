import PostgresStore
import Synchronization
import Testing

/// `Gathering`: requests that arrive at once are served together, each gets its own answer, and
/// no batch grows past its limit. (A request left waiting would hang: the time limit fails it.)
@Suite("Requests gathered into batches", .timeLimit(.minutes(1)))
struct GatheringTests {
    /// What a serve saw: the batches, in the order it served them.
    private final class Served: Sendable {
        let batches = Mutex<[[Int]]>([])
    }

    private struct Refused: Error, Equatable {
        let request: Int
    }

    @Test("requests that arrive together go in batches within the limit; each gets its own answer or error")
    func batches() async throws {
        let served = Served()
        // Each request costs its own value; odd ones are refused.
        let limit = Gathering<Int, String>.Limit(count: 8, budget: 100, cost: { $0 })
        let gathering = Gathering<Int, String>(servers: 2, limit: limit) { batch in
            served.batches.withLock { $0.append(batch) }
            // Long enough for the others to arrive meanwhile.
            try? await Task.sleep(for: .milliseconds(20))
            return batch.map { $0.isMultiple(of: 2) ? .success("answer \($0)") : .failure(Refused(request: $0)) }
        }
        let requests = Array(1...60)
        let answers = await withTaskGroup(of: (Int, Result<String, Refused>).self) { group in
            for request in requests {
                group.addTask {
                    do {
                        return (request, .success(try await gathering.ask(request)))
                    } catch let error as Refused {
                        return (request, .failure(error))
                    } catch {
                        return (request, .failure(Refused(request: -1)))
                    }
                }
            }
            return await group.reduce(into: [Int: Result<String, Refused>]()) { $0[$1.0] = $1.1 }
        }
        for request in requests {
            #expect(answers[request] == (request.isMultiple(of: 2) ? .success("answer \(request)") : .failure(Refused(request: request))))
        }
        let batches = served.batches.withLock { $0 }
        #expect(batches.flatMap { $0 }.sorted() == requests, "every request served once")
        #expect(batches.count < requests.count, "some were served together")
        for batch in batches {
            #expect(batch.count <= 8)
            #expect(batch.count == 1 || batch.reduce(0, +) <= 100, "\(batch) is past the budget")
        }
    }

    @Test("a request past the budget on its own is still served, alone")
    func largeRequest() async throws {
        let gathering = Gathering<Int, Int>(servers: 1, limit: .init(count: 4, budget: 10, cost: { $0 })) { batch in
            batch.map { .success($0 * 2) }
        }
        #expect(try await gathering.ask(50) == 100)
    }

    @Test("a serve that answers too few leaves no one waiting: the rest are told the batch went unanswered")
    func tooFewAnswers() async throws {
        let gathering = Gathering<Int, Int>(servers: 1, limit: .init(count: 1)) { _ in [] }
        await #expect(throws: ServerDatabaseError.self) { try await gathering.ask(1) }
        // And it keeps serving afterwards.
        await #expect(throws: ServerDatabaseError.self) { try await gathering.ask(2) }
    }
}
