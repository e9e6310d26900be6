import FlowKit

/// The host of one browser session's flows: it keeps the screen the flow waits on, and hands the
/// browser's events to the flow one at a time.
///
/// A flow asks for an event only when it has nothing else to do, so the host knows the flow is
/// idle exactly then, and a page is drawn from a screen that waits for its user.
actor WebScreenHost: ScreenHost {
    private enum State {
        case running
        case idle(Screen, CheckedContinuation<UserEvent, Never>)
        case finished
    }

    private var state = State.running
    private var waiters: [CheckedContinuation<Screen?, Never>] = []
    /// The last screen shown on top: while the flow works, it says so (busy).
    private(set) var shown: Screen?

    func present(_ screen: Screen) async { shown = screen }

    func update(_ screen: Screen) async {
        if screen.id == shown?.id || shown == nil { shown = screen }
    }

    func dismiss(_ screenID: ScreenID) async {}

    func nextEvent(on screen: Screen) async -> UserEvent {
        shown = screen
        return await withCheckedContinuation { continuation in
            state = .idle(screen, continuation)
            resumeWaiters(with: screen)
        }
    }

    /// Marks the run over: the flow has returned.
    func finish() {
        state = .finished
        resumeWaiters(with: nil)
    }

    var isFinished: Bool {
        if case .finished = state { true } else { false }
    }

    /// How waiting for the flow ended.
    enum Settled: Sendable {
        /// The screen the flow waits on; nil once it has ended.
        case screen(Screen?)
        /// The flow is still at work.
        case working
    }

    /// The screen the flow waits on, once it waits (nil once it has ended), unless it is still
    /// at work after `limit`.
    func settled(within limit: Duration) async -> Settled {
        switch state {
        case .idle(let screen, _): return .screen(screen)
        case .finished: return .screen(nil)
        case .running: break
        }
        let race = FirstAnswer<Settled>()
        let waiting = Task { await race.settle(.screen(await self.idleScreen())) }
        let timer = Task {
            try? await Task.sleep(for: limit)
            await race.settle(.working)
        }
        let answer = await race.value()
        waiting.cancel()
        timer.cancel()
        return answer
    }

    private func idleScreen() async -> Screen? {
        switch state {
        case .idle(let screen, _): screen
        case .finished: nil
        case .running: await withCheckedContinuation { waiters.append($0) }
        }
    }

    /// Gives the waiting flow its next event; false when no flow is waiting.
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

/// The first of several tasks to answer wins.
actor FirstAnswer<Value: Sendable> {
    private var answer: Value?
    private var waiter: CheckedContinuation<Value, Never>?

    func settle(_ value: Value) {
        guard answer == nil else { return }
        answer = value
        waiter?.resume(returning: value)
        waiter = nil
    }

    func value() async -> Value {
        if let answer { return answer }
        return await withCheckedContinuation { waiter = $0 }
    }
}
