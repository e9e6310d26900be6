import FlowKit
import Testing

/// A host for tests: it hands each screen a flow waits on to the test, and the test's events to
/// the flow. The flow is idle exactly when it asks for an event, so no test sleeps or polls.
actor TestHost: ScreenHost {
    private enum State {
        case running
        case idle(Screen, CheckedContinuation<UserEvent, Never>)
        case finished
    }

    private var state = State.running
    private var waiters: [CheckedContinuation<Screen?, Never>] = []
    /// Every screen presented, in order.
    private(set) var presented: [ElementID] = []

    func present(_ screen: Screen) async { presented.append(screen.id) }
    func update(_ screen: Screen) async {}
    func dismiss(_ screenID: ElementID) async {}

    func nextEvent(on screen: Screen) async -> UserEvent {
        await withCheckedContinuation { continuation in
            state = .idle(screen, continuation)
            resumeWaiters(with: screen)
        }
    }

    /// The flow has returned.
    func finish() {
        state = .finished
        resumeWaiters(with: nil)
    }

    /// The screen the flow waits on, once it waits; nil once the flow has ended.
    func idleScreen() async -> Screen? {
        switch state {
        case .idle(let screen, _): screen
        case .finished: nil
        case .running: await withCheckedContinuation { waiters.append($0) }
        }
    }

    /// Gives the waiting flow its next event; false when no flow was waiting.
    func send(_ event: UserEvent) -> Bool {
        guard case .idle(_, let continuation) = state else { return false }
        state = .running
        continuation.resume(returning: event)
        return true
    }

    private func resumeWaiters(with screen: Screen?) {
        let waiting = waiters
        waiters = []
        for waiter in waiting { waiter.resume(returning: screen) }
    }
}

/// Runs one flow under a ``TestHost`` and steps it.
struct FlowDriver<Result: Sendable> {
    let host: TestHost
    private let task: Task<Result, Never>

    init<F: Flow>(_ make: @escaping @Sendable (AppRouter) -> F) where F.FlowResult == Result {
        self.init(running: { router in await make(router).perform() })
    }

    /// Runs any work that draws through a router, such as a launcher's entry.
    init(running work: @escaping @Sendable (AppRouter) async -> Result) {
        let host = TestHost()
        let router = AppRouter(host: host)
        self.host = host
        task = Task {
            let result = await work(router)
            await host.finish()
            return result
        }
    }

    /// The screen the flow waits on, checked to be `id`.
    @discardableResult
    func expectScreen(_ id: ElementID, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Screen {
        let screen = try #require(await host.idleScreen(), "the flow ended instead of showing \(id)", sourceLocation: sourceLocation)
        try #require(screen.id == id, "expected screen \(id), got \(screen.id)", sourceLocation: sourceLocation)
        return screen
    }

    func send(_ event: UserEvent, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        _ = await host.idleScreen()
        try #require(await host.send(event), "the flow was not waiting for \(event)", sourceLocation: sourceLocation)
    }

    func fill(_ id: ElementID, _ value: String) async throws { try await send(.fill(id, value)) }
    func tap(_ id: ElementID) async throws { try await send(.tap(id)) }

    /// The flow's result, once it has ended.
    func result() async -> Result { await task.value }
}
