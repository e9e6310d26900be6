import FlowKit

/// A host driven by a test or a script: it hands over each screen a flow waits on, and passes
/// the test's events to the flow.
///
/// A flow asks for an event only when it has nothing else to do, so the host knows the flow is
/// idle exactly then: no test sleeps or polls.
public actor ScriptedHost: ScreenHost {
    private enum State {
        case running
        case idle(Screen, CheckedContinuation<UserEvent, Never>)
        case finished
    }

    private var state = State.running
    private var waiters: [CheckedContinuation<Screen?, Never>] = []
    /// The identifiers of every screen presented, in order.
    public private(set) var presented: [ScreenID] = []

    public init() {}

    public func present(_ screen: Screen) async { presented.append(screen.id) }
    public func update(_ screen: Screen) async {}
    public func dismiss(_ screenID: ScreenID) async {}

    public func nextEvent(on screen: Screen) async -> UserEvent {
        await withCheckedContinuation { continuation in
            state = .idle(screen, continuation)
            resumeWaiters(with: screen)
        }
    }

    /// Marks the run over: the flow has returned.
    public func finish() {
        state = .finished
        resumeWaiters(with: nil)
    }

    /// The screen the flow waits on, once it waits; nil once the flow has ended.
    public func idleScreen() async -> Screen? {
        switch state {
        case .idle(let screen, _): screen
        case .finished: nil
        case .running: await withCheckedContinuation { waiters.append($0) }
        }
    }

    /// Gives the waiting flow its next event; false when no flow is waiting.
    public func send(_ event: UserEvent) -> Bool {
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

/// One run of a flow under a ``ScriptedHost``.
public struct FlowRun: Sendable {
    public let host: ScriptedHost
    private let task: Task<AnyFlowOutcome, Never>

    /// Starts `work`, which runs a flow drawing through the router it is given; children the
    /// flow starts go through `starter`.
    public init(starter: any FlowStarter = PerformingStarter(), _ work: @escaping @Sendable (AppRouter) async -> AnyFlowOutcome) {
        let host = ScriptedHost()
        let router = AppRouter(host: host, starter: starter)
        self.host = host
        task = Task {
            let outcome = await work(router)
            await host.finish()
            return outcome
        }
    }

    /// The flow's result, once it has returned.
    public func outcome() async -> AnyFlowOutcome { await task.value }

    /// Cancels until the flow returns (each screen of a stack may need its own cancel).
    public func cancelUntilDone() async -> AnyFlowOutcome {
        while await host.idleScreen() != nil {
            _ = await host.send(.cancel)
        }
        return await outcome()
    }
}
