import FlowKit

/// A host driven by a test, a script or a browser session (FlowWeb): it hands over each screen
/// a flow waits on, and passes the driver's events to the flow.
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
    /// The last screen shown on top: while the flow works, it says so (busy).
    public private(set) var shown: Screen?

    public init() {}

    public func present(_ screen: Screen) async {
        presented.append(screen.id)
        shown = screen
    }

    public func update(_ screen: Screen) async {
        if screen.id == shown?.id || shown == nil { shown = screen }
    }

    public func dismiss(_ screenID: ScreenID) async {}

    public func nextEvent(on screen: Screen) async -> UserEvent {
        shown = screen
        return await withCheckedContinuation { continuation in
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

    /// The screen the flow waits on next (nil once it has ended), unless it does not settle
    /// within `limit`.
    public func idleScreen(within limit: Duration) async -> FlowRun.Settled {
        switch state {
        case .idle(let screen, _): return .screen(screen)
        case .finished: return .screen(nil)
        case .running: break
        }
        let race = Race()
        let waiting = Task { await race.settle(.screen(await self.idleScreen())) }
        let timer = Task {
            try? await Task.sleep(for: limit)
            await race.settle(.timedOut)
        }
        let answer = await race.value()
        waiting.cancel()
        timer.cancel()
        return answer
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

    /// Stops a flow that no longer answers: its task is cancelled (work that heeds cancellation
    /// ends), and whoever waits on its screen hears that it has ended.
    public func abandon() async {
        task.cancel()
        await host.finish()
    }

    /// How waiting for the flow ended: the screen it waits on (nil once it has ended), or out
    /// of time.
    public enum Settled: Sendable {
        case screen(Screen?)
        case timedOut
    }

    /// The screen the flow waits on next (nil once it has ended), unless it does not settle
    /// within `limit`.
    public func idleScreen(within limit: Duration) async -> Settled {
        await host.idleScreen(within: limit)
    }
}

/// The first of two tasks to answer wins.
private actor Race {
    private var answer: FlowRun.Settled?
    private var waiter: CheckedContinuation<FlowRun.Settled, Never>?

    func settle(_ value: FlowRun.Settled) {
        guard answer == nil else { return }
        answer = value
        waiter?.resume(returning: value)
        waiter = nil
    }

    func value() async -> FlowRun.Settled {
        if let answer { return answer }
        return await withCheckedContinuation { waiter = $0 }
    }
}
