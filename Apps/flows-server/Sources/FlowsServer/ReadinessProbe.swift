import Synchronization

/// Whether the store answers, asked of it at most once an `interval`: a request in between takes
/// the last answer, and one that arrives while a probe is under way waits for that probe. So a
/// load balancer's checks, however many at once, cost the database one connection at a time,
/// taken from the pool like any other.
final class ReadinessProbe: Sendable {
    private enum Step {
        case answered(Bool)
        case waiting(Task<Bool, Never>)
    }

    private struct State {
        var last: (at: ContinuousClock.Instant, ready: Bool)?
        var running: Task<Bool, Never>?
    }

    private let state = Mutex(State())
    private let interval: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let probe: @Sendable () async -> Bool

    init(
        interval: Duration = .seconds(1), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        probe: @escaping @Sendable () async -> Bool
    ) {
        self.interval = interval
        self.now = now
        self.probe = probe
    }

    func ready() async -> Bool {
        let step = state.withLock { state -> Step in
            if let last = state.last, now() - last.at < interval { return .answered(last.ready) }
            if let running = state.running { return .waiting(running) }
            // Unstructured: the probe finishes for the others even if the request that started
            // it goes away.
            let probe = probe
            let task = Task { await probe() }
            state.running = task
            return .waiting(task)
        }
        switch step {
        case .answered(let ready):
            return ready
        case .waiting(let task):
            let ready = await task.value
            let at = now()
            state.withLock { state in
                guard state.running == task else { return }
                state.running = nil
                state.last = (at, ready)
            }
            return ready
        }
    }
}
