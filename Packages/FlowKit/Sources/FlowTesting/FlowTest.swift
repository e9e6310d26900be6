import FlowKit

/// Drives one flow from Swift tests with the verbs of scripts: fill, choose, tap, back, cancel,
/// and expectations on screens and the result.
///
/// Exhaustive by default: before each action, the screen the flow shows must have been looked
/// at (`expectScreen`, `expectText`, `expectError`, or `skipScreen()` on purpose), so no screen
/// goes unchecked. Each step waits until the flow is idle; nothing sleeps. Failures are thrown
/// as ``FlowTestFailure``s that show the screen, and diffs where texts differ.
public actor FlowTest {
    private let run: FlowRun
    private let exhaustive: Bool
    private var screen: Screen?
    private var lookedAt = false
    private var started = false

    /// Starts `work`, which runs a flow drawing through the router it is given.
    public init(exhaustive: Bool = true, _ work: @escaping @Sendable (AppRouter) async -> AnyFlowOutcome) {
        run = FlowRun(work)
        self.exhaustive = exhaustive
    }

    /// Starts the flow `make` builds.
    public init<F: Flow>(exhaustive: Bool = true, _ make: @escaping @Sendable (AppRouter) -> F) {
        self.init(exhaustive: exhaustive) { router in AnyFlowOutcome(await make(router).perform()) }
    }

    /// The identifiers of every screen presented so far, in order.
    public var presented: [ElementID] {
        get async { await run.host.presented }
    }

    // MARK: - Looking

    /// The screen the flow waits on, checked to be `id`.
    @discardableResult
    public func expectScreen(_ id: ElementID, fileID: String = #fileID, line: Int = #line) async throws -> Screen {
        let current = try await current(fileID, line)
        guard current.id == id else {
            throw failure("expected screen \(id), the flow shows \(current.id):\n\(ScreenSnapshot.text(of: current))", fileID, line)
        }
        lookedAt = true
        return current
    }

    /// The screen, as its transcript shows it, contains `text`.
    public func expectText(_ text: String, fileID: String = #fileID, line: Int = #line) async throws {
        try await expect(.expectText(text), fileID, line)
    }

    /// The field shows exactly this inline error; with no field, the screen's error status.
    public func expectError(_ field: ElementID?, _ message: String, fileID: String = #fileID, line: Int = #line) async throws {
        try await expect(.expectError(field, message), fileID, line)
    }

    /// The current screen counts as looked at without a check.
    @discardableResult
    public func skipScreen(fileID: String = #fileID, line: Int = #line) async throws -> Screen {
        let current = try await current(fileID, line)
        lookedAt = true
        return current
    }

    // MARK: - Acting

    public func fill(_ field: ElementID, _ value: String, fileID: String = #fileID, line: Int = #line) async throws {
        try await send(.fill(field, value), fileID: fileID, line: line)
    }

    public func choose(_ field: ElementID, _ options: ElementID..., fileID: String = #fileID, line: Int = #line) async throws {
        try await send(.choose(field, options), fileID: fileID, line: line)
    }

    public func tap(_ action: ElementID, fileID: String = #fileID, line: Int = #line) async throws {
        try await send(.tap(action), fileID: fileID, line: line)
    }

    public func back(fileID: String = #fileID, line: Int = #line) async throws {
        try await send(.back, fileID: fileID, line: line)
    }

    public func cancel(fileID: String = #fileID, line: Int = #line) async throws {
        try await send(.cancel, fileID: fileID, line: line)
    }

    /// Sends any event, after checking it fits the screen.
    public func send(_ event: UserEvent, fileID: String = #fileID, line: Int = #line) async throws {
        let current = try await current(fileID, line)
        if exhaustive, !lookedAt {
            throw failure(
                "the screen \(current.id) was not looked at before \(event); expect it, or skipScreen() on purpose:\n\(ScreenSnapshot.text(of: current))",
                fileID, line
            )
        }
        if let mismatch = ScreenOffers.mismatch(of: event, on: current) {
            throw failure("\(mismatch); \(ScreenOffers.description(of: current))", fileID, line)
        }
        _ = await run.host.send(event)
        screen = await run.host.idleScreen()
        lookedAt = false
    }

    // MARK: - The end

    /// The flow's result, once it has ended; fails if it still waits on a screen.
    public func result(fileID: String = #fileID, line: Int = #line) async throws -> AnyFlowOutcome {
        if !started {
            screen = await run.host.idleScreen()
            started = true
        }
        if let waiting = screen {
            throw failure("the flow has not ended: it waits on \(waiting.id):\n\(ScreenSnapshot.text(of: waiting))", fileID, line)
        }
        return await run.outcome()
    }

    /// The flow's typed result, once it has ended.
    public func result<Outcome: FlowOutcome>(as type: Outcome.Type, fileID: String = #fileID, line: Int = #line) async throws -> Outcome {
        let outcome = try await result(fileID: fileID, line: line)
        guard let typed = outcome.value as? Outcome else {
            throw failure("the result is a \(Swift.type(of: outcome.value)), not a \(Outcome.self)", fileID, line)
        }
        return typed
    }

    // MARK: - Helpers

    private func current(_ fileID: String, _ line: Int) async throws -> Screen {
        if !started {
            screen = await run.host.idleScreen()
            started = true
        }
        guard let screen else {
            throw failure("the flow has already ended (\(await run.outcome().name))", fileID, line)
        }
        return screen
    }

    private func expect(_ verb: Script.Verb, _ fileID: String, _ line: Int) async throws {
        let current = try await current(fileID, line)
        if let mismatch = ScreenExpectation.mismatch(verb, on: current) {
            throw failure("\(mismatch)\nscreen:\n\(ScreenSnapshot.text(of: current))", fileID, line)
        }
        lookedAt = true
    }

    private func failure(_ message: String, _ fileID: String, _ line: Int) -> FlowTestFailure {
        FlowTestFailure(location: "\(fileID):\(line)", message: message)
    }
}

/// A step of a ``FlowTest`` that did not hold, with where it was written.
public struct FlowTestFailure: Error, CustomStringConvertible, Sendable {
    public var location: String
    public var message: String

    public var description: String { "\(location): \(message)" }
}
