import Synchronization

/// Requests that arrive while others are being served wait, then are served together: one
/// round trip, one statement (and, for a write, one transaction) for many, where each would
/// otherwise pay its own. Round trips and statements, not rows, are what limit how many a
/// second a server can take, so gathering is what lets it take many at once. A request that
/// finds no other waits for nothing: it is served at once, as a batch of one.
///
/// What a batch means is the caller's: ``Serve`` answers each request in it, and may answer
/// some with an error and others not.
public final class Gathering<Request: Sendable, Answer: Sendable>: Sendable {
    /// Serves a batch: one answer for each request, in their order.
    public typealias Serve = @Sendable ([Request]) async -> [Result<Answer, any Error>]

    /// How large a batch may grow.
    public struct Limit: Sendable {
        /// The most requests in one batch.
        public let count: Int
        /// The most that the costs of a batch's requests add up to, unless one request alone
        /// costs more (a statement's parameters, say: PostgreSQL binds up to 65,535).
        public let budget: Int
        /// What a request costs of the budget.
        public let cost: @Sendable (Request) -> Int

        public init(count: Int, budget: Int = .max, cost: @escaping @Sendable (Request) -> Int = { _ in 0 }) {
            self.count = max(1, count)
            self.budget = budget
            self.cost = cost
        }
    }

    private struct Waiting: Sendable {
        let request: Request
        let continuation: CheckedContinuation<Answer, any Error>
    }

    private struct State {
        var waiting: [Waiting] = []
        var servers = 0
    }

    private let state = Mutex(State())
    private let serve: Serve
    private let servers: Int
    private let limit: Limit

    /// - Parameters:
    ///   - servers: how many batches are served at once (each on its own connection).
    ///   - limit: how large a batch may grow.
    public init(servers: Int, limit: Limit, serve: @escaping Serve) {
        self.servers = max(1, servers)
        self.limit = limit
        self.serve = serve
    }

    /// Returns `request`'s answer once its batch was served; throws what refused it.
    public func ask(_ request: Request) async throws -> Answer {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Answer, any Error>) in
            let startsServer = state.withLock { state in
                state.waiting.append(Waiting(request: request, continuation: continuation))
                guard state.servers < servers else { return false }
                state.servers += 1
                return true
            }
            // Detached: a batch belongs to no one request, so it takes none of the task-locals of
            // the request that happened to start its server.
            if startsServer { Task.detached { await self.drain() } }
        }
    }

    /// Serves what waits, a batch at a time, until nothing does.
    private func drain() async {
        while let batch = next() {
            let answers = await serve(batch.map(\.request))
            for (index, waiting) in batch.enumerated() {
                guard index < answers.count else {
                    waiting.continuation.resume(throwing: ServerDatabaseError.unavailable("a batch of \(batch.count) came back with \(answers.count) answers"))
                    continue
                }
                waiting.continuation.resume(with: answers[index])
            }
        }
    }

    /// The next batch, or nil (and one server fewer) when nothing waits.
    private func next() -> [Waiting]? {
        state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.servers -= 1
                return nil
            }
            var count = 0
            var spent = 0
            for waiting in state.waiting {
                let cost = limit.cost(waiting.request)
                guard count == 0 || (count < limit.count && spent <= limit.budget - cost) else { break }
                count += 1
                spent += cost
            }
            let batch = Array(state.waiting.prefix(count))
            state.waiting.removeFirst(count)
            return batch
        }
    }
}
