import FlowKit
import FlowTesting
import Foundation
import Testing

/// Drives one flow from Swift tests with the verbs of scripts (fill, choose, tap, back, cancel),
/// expectations on screens and the result, and stand-ins for the flow's children.
///
/// Exhaustive by default: before each action, the screen the flow shows must have been looked
/// at (`expectScreen`, `expectSnapshot`, `expectText`, `expectError`, or `skipScreen()` on
/// purpose), and every child expected with `expectChild` must have been started by the end.
/// Each step waits until the flow is idle; nothing sleeps.
///
/// A step that does not hold is recorded as a Swift Testing issue at the line of that step,
/// with the expected and the actual side by side as a diff, and the test goes on where that
/// still makes sense: a wrong expectation is only recorded, an action the screen does not offer
/// is not sent, and a result asked for while the flow still waits cancels it first.
public actor FlowTest {
    private let work: @Sendable (AppRouter) async -> AnyFlowOutcome
    private let children = StandIns()
    private let exhaustive: Bool
    /// The run, started by the first step (so that children can be expected before it).
    private var started: FlowRun?
    private var screen: Screen?
    private var lookedAt = false

    /// Prepares `work`, which runs a flow drawing through the router it is given. The flow
    /// starts at the first step that looks at it, acts on it or asks for its result.
    public init(exhaustive: Bool = true, _ work: @escaping @Sendable (AppRouter) async -> AnyFlowOutcome) {
        self.work = work
        self.exhaustive = exhaustive
    }

    /// Starts the flow `make` builds.
    public init<F: Flow>(exhaustive: Bool = true, _ make: @escaping @Sendable (AppRouter) -> F) {
        self.init(exhaustive: exhaustive) { router in AnyFlowOutcome(await make(router).perform()) }
    }

    /// The identifiers of every screen presented so far, in order.
    public var presented: [ScreenID] {
        get async { await started?.host.presented ?? [] }
    }

    /// The type names of the children the flow started so far, in order, stood in for or not.
    public var startedChildren: [String] {
        get async { await children.started }
    }

    // MARK: - Looking

    /// The screen the flow waits on, checked to be `id`.
    @discardableResult
    public func expectScreen(
        _ id: ScreenID,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async -> Screen? {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let current = await lookAt(location) else { return nil }
        if let mismatch = ScreenExpectation.mismatch(.expectScreen(id), on: current) {
            record(
                mismatch, diff: (["screen \(id)"], ["screen \(current.id)"]),
                then: "the screen shown:\n\(ScreenSnapshot.text(of: current))", location
            )
        }
        return current
    }

    /// The whole screen, as transcripts draw it, is exactly `expected` (a trailing newline and
    /// the indentation of a multi-line literal aside).
    public func expectSnapshot(
        _ expected: String,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let current = await lookAt(location) else { return }
        let actual = ScreenSnapshot.text(of: current)
        let wanted = expected.hasSuffix("\n") ? String(expected.dropLast()) : expected
        if let diff = TextDiff.unified(expected: wanted, actual: actual, expectedName: "expected", actualName: "screen \(current.id)") {
            Issue.record(Comment(rawValue: "the screen differs:\n\(diff)"), sourceLocation: location)
        }
    }

    /// The screen, as its transcript shows it, contains `text`.
    public func expectText(
        _ text: String,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let current = await lookAt(location) else { return }
        if let mismatch = ScreenExpectation.mismatch(.expectText(text), on: current) {
            record(mismatch, diff: nil, location)
        }
    }

    /// The field shows exactly this inline error (nil: none); with no field, the screen's error
    /// status.
    public func expectError(
        _ field: ElementID?, _ message: String?,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let current = await lookAt(location) else { return }
        let shown: String?
        switch ScreenExpectation.shownError(field, on: current) {
        case .success(let error): shown = error
        case .failure(let missing):
            record(missing.message, diff: nil, location)
            return
        }
        guard shown != message else { return }
        let place = field.map { "error on \($0)" } ?? "the screen's error"
        let describe = { (text: String?) in text.map(ScriptText.quoted) ?? "none" }
        record("\(place) differs", diff: (["\(place): \(describe(message))"], ["\(place): \(describe(shown))"]), location)
    }

    /// The current screen counts as looked at without a check.
    @discardableResult
    public func skipScreen(
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async -> Screen? {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let current = await lookAt(location) else { return nil }
        return current
    }

    // MARK: - Acting

    public func fill(
        _ field: ElementID, _ value: String,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async {
        await send(.fill(field, value), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Fills several fields in order, the screens between them counted as looked at: a form
    /// typed in when only what follows matters. The screen after the last one is not.
    public func fill(
        _ values: KeyValuePairs<ElementID, String>,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async {
        for (field, value) in values {
            await skipScreen(fileID: fileID, filePath: filePath, line: line, column: column)
            await fill(field, value, fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }

    public func choose(
        _ field: ElementID, _ options: ElementID...,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async {
        await send(.choose(field, options), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    public func tap(
        _ action: ElementID,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async {
        await send(.tap(action), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    public func back(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) async {
        await send(.back, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    public func cancel(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) async {
        await send(.cancel, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Sends any event, after checking it fits the screen; one that does not is not sent.
    public func send(
        _ event: UserEvent,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let current = await current(location) else { return }
        if exhaustive, !lookedAt {
            record(
                "the screen \(current.id) was not looked at before \(event); expect it, or skipScreen() on purpose:\n\(ScreenSnapshot.text(of: current))",
                diff: nil, location
            )
        }
        if let mismatch = ScreenOffers.mismatch(of: event, on: current) {
            record("\(mismatch); \(ScreenOffers.description(of: current))", diff: nil, location)
            lookedAt = true
            return
        }
        let run = await run()
        _ = await run.host.send(event)
        screen = await run.host.idleScreen()
        lookedAt = false
    }

    // MARK: - Children

    /// The next time the flow starts a child of this type, the child does not run: the flow gets
    /// `result` at once, as if the child had run and ended so. Expect a child before the step
    /// that starts it. A child with no expectation runs for real.
    public func expectChild<Child: Flow>(
        _ type: Child.Type, producing result: Child.FlowResult,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await children.expect(type, producing: result, at: location)
    }

    // MARK: - The end

    /// The flow's result once it has ended. A flow that still waits on a screen is recorded as
    /// a failure and cancelled until it ends.
    @discardableResult
    public func result(
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async -> AnyFlowOutcome {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let run = await run()
        if let waiting = screen {
            record("the flow has not ended: it waits on \(waiting.id):\n\(ScreenSnapshot.text(of: waiting))", diff: nil, location)
            screen = nil
        }
        let outcome = await run.cancelUntilDone()
        if exhaustive {
            for unmet in await children.takeUnmet() {
                record("the flow never started the expected child \(unmet.name)", diff: nil, unmet.location)
            }
        }
        return outcome
    }

    /// The flow's typed result once it has ended; nil (recorded) when it is of another type.
    public func result<Outcome: FlowOutcome>(
        as type: Outcome.Type,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async -> Outcome? {
        let outcome = await result(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let typed = outcome.value as? Outcome else {
            let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
            record("the result is a \(Swift.type(of: outcome.value)), not a \(Outcome.self)", diff: nil, location)
            return nil
        }
        return typed
    }

    /// The flow ended with exactly `expected`; a different result is shown as a diff of the two
    /// as JSON.
    public func expectResult<Outcome: FlowOutcome>(
        _ expected: Outcome,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async {
        let outcome = await result(fileID: fileID, filePath: filePath, line: line, column: column)
        guard (outcome.value as? Outcome) != expected else { return }
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let diff = TextDiff.unified(expected: Self.json(expected), actual: Self.json(outcome.value), expectedName: "expected result", actualName: "result")
        Issue.record(Comment(rawValue: "the result differs:\n\(diff ?? "\(expected) vs \(outcome.value)")"), sourceLocation: location)
    }

    // MARK: - Helpers

    /// The run; the first call starts the flow and waits for its first screen.
    private func run() async -> FlowRun {
        if let started { return started }
        let run = FlowRun(starter: children, work)
        started = run
        screen = await run.host.idleScreen()
        return run
    }

    /// The current screen, counted as looked at.
    private func lookAt(_ location: SourceLocation) async -> Screen? {
        let current = await current(location)
        if current != nil { lookedAt = true }
        return current
    }

    private func current(_ location: SourceLocation) async -> Screen? {
        let run = await run()
        guard let screen else {
            record("the flow has already ended (\(await run.outcome().name))", diff: nil, location)
            return nil
        }
        return screen
    }

    /// Records a failure at `location`: the message, the expected (`-`) and actual (`+`) lines,
    /// and anything more to show.
    private func record(
        _ message: String, diff: (expected: [String], actual: [String])?, then more: String? = nil, _ location: SourceLocation
    ) {
        var text = message
        if let diff {
            text += "\n" + (diff.expected.map { "- \($0)" } + diff.actual.map { "+ \($0)" }).joined(separator: "\n")
        }
        if let more { text += "\n" + more }
        Issue.record(Comment(rawValue: text), sourceLocation: location)
    }

    private static func json(_ value: any Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
    }
}
