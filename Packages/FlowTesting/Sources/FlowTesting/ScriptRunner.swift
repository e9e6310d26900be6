import FlowKit
import Foundation

/// A step that did not fit, with where it is in its script.
public struct ScriptFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var step: String
    public var message: String

    public var description: String { "\(file):\(line): \(step): \(message)" }
}

/// What running a script gave: the transcript, the flow's result, and the first failure.
public struct ScriptRun: Sendable {
    public var transcript: String
    public var outcome: AnyFlowOutcome?
    public var failure: ScriptFailure?
    /// Every screen the flow waited on, in order: what coverage counts.
    public var screens: [Screen] = []
    /// Every action taken, with the screen it was taken on.
    public var taps: [(screen: ScreenID, action: ElementID)] = []
}

/// Runs scripts against flows and writes their transcripts.
///
/// A transcript records the flow's name, then every step and, after each step that acts, the
/// screen the flow shows next as ``ScreenSnapshot`` draws it (or that it is unchanged), and last
/// the result. The same script on the same container gives the same transcript, byte for byte.
public enum ScriptRunner {
    /// Sets up the container for a `given` step; throws a sentence when it cannot.
    public typealias Prepare = @Sendable ([String]) async throws -> Void
    /// Everything the store holds, as text: two readings are equal exactly when nothing changed.
    public typealias Contents = @Sendable () async -> String

    public static func run(
        _ script: Script,
        flow name: String,
        prepare: Prepare? = nil,
        contents: Contents? = nil,
        stepLimit: Duration = .seconds(30),
        launch: @escaping @Sendable (AppRouter) async -> AnyFlowOutcome
    ) async -> ScriptRun {
        var transcript = Transcript(flow: name)
        var steps = script.steps[...]

        while let step = steps.first, case .given(let words) = step.action {
            steps = steps.dropFirst()
            transcript.step(step.action)
            do {
                guard let prepare else { throw SetupError(message: "this runner has no fixtures for given") }
                try await prepare(words)
            } catch {
                let failure = ScriptFailure(file: script.file, line: step.line, step: step.action.scriptLine, message: "\(error)")
                return ScriptRun(transcript: transcript.text, outcome: nil, failure: failure)
            }
        }

        // What `expect store unchanged` compares with: the store once it is set up (read only
        // for a script that asks).
        let asks = steps.contains { if case .expectStoreUnchanged = $0.action { true } else { false } }
        let baseline = asks ? await contents?() : nil
        let run = FlowRun(launch)
        guard case .screen(var screen) = await run.idleScreen(within: stepLimit) else {
            return await stuck(run, script: script, step: nil, limit: stepLimit, transcript: transcript)
        }
        transcript.show(screen)
        var failure: ScriptFailure?
        var seen = screen.map { [$0] } ?? []
        var taps: [(screen: ScreenID, action: ElementID)] = []

        for step in steps {
            transcript.step(step.action, secret: screen.map { ScreenOffers.isSecret(step.action, on: $0) } ?? false)
            let before = screen
            if let event = step.action.event, let current = screen, ScreenOffers.mismatch(of: event, on: current) == nil {
                // A step that acts: the flow must settle on its next screen in time.
                _ = await run.host.send(event)
                guard case .screen(let next) = await run.idleScreen(within: stepLimit) else {
                    return await stuck(run, script: script, step: step, limit: stepLimit, transcript: transcript)
                }
                screen = next
            } else if case .given(let words) = step.action {
                // Someone else's write while the flow waits: the screen shows it only once it
                // reads again (`refresh`, or a step that moves it on).
                do {
                    guard let prepare else { throw SetupError(message: "this runner has no fixtures for given") }
                    try await prepare(words)
                } catch {
                    failure = ScriptFailure(file: script.file, line: step.line, step: step.action.scriptLine, message: "\(error)")
                    break
                }
            } else if let problem = await perform(step.action, run: run, screen: &screen, contents: contents, baseline: baseline) {
                failure = ScriptFailure(file: script.file, line: step.line, step: step.action.scriptLine, message: problem)
                break
            }
            if step.action.event != nil {
                transcript.show(screen)
                if case .tap(let action) = step.action, let before { taps.append((before.id, action)) }
                if let screen { seen.append(screen) }
            }
        }

        if failure == nil, let waiting = screen {
            let last = script.steps.last
            failure = ScriptFailure(
                file: script.file, line: last?.line ?? 0, step: last?.action.scriptLine ?? "(end)",
                message: "the script ended while the flow waits on \(waiting.id); end it with an action that finishes the flow, or cancel"
            )
        }
        let outcome = await run.cancelUntilDone()
        transcript.result(outcome)
        return ScriptRun(transcript: transcript.text, outcome: outcome, failure: failure, screens: seen, taps: taps)
    }

    /// A flow that did not settle in time: abandoned, and the script fails at its step.
    private static func stuck(_ run: FlowRun, script: Script, step: Script.Step?, limit: Duration, transcript: Transcript) async -> ScriptRun {
        await run.abandon()
        var transcript = transcript
        transcript.stuck(limit)
        let failure = ScriptFailure(
            file: script.file, line: step?.line ?? 0, step: step?.action.scriptLine ?? "(start)",
            message: "the flow did not settle within \(limit): it hangs"
        )
        return ScriptRun(transcript: transcript.text, outcome: nil, failure: failure)
    }

    /// Checks an expectation, or says why an acting step cannot be sent (a step that fits its
    /// screen is sent by the caller, within the step limit); returns why it failed, or nil.
    private static func perform(
        _ verb: Script.Verb, run: FlowRun, screen: inout Screen?, contents: Contents?, baseline: String?
    ) async -> String? {
        if let event = verb.event {
            guard let current = screen else { return "the flow has already ended (\(await run.outcome().name))" }
            return ScreenOffers.mismatch(of: event, on: current).map { "\($0); \(ScreenOffers.description(of: current))" }
        }
        switch verb {
        case .expectResult(let name):
            guard screen == nil else { return "the flow has not ended: it waits on \(screen?.id.rawValue ?? "")" }
            let actual = await run.outcome().name
            return actual == name ? nil : "expected result \(name), the flow returned \(actual)"
        case .expectStoreUnchanged:
            guard let contents, let baseline else { return "this runner cannot read the store" }
            let now = await contents()
            guard let diff = TextDiff.unified(expected: baseline, actual: now, expectedName: "the store after the given steps", actualName: "the store now") else {
                return nil
            }
            return "the store changed:\n\(diff)"
        default:
            guard let current = screen else { return "the flow has already ended (\(await run.outcome().name))" }
            return ScreenExpectation.mismatch(verb, on: current)
        }
    }

    private struct SetupError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

/// Checks `expect` steps against a screen.
package enum ScreenExpectation {
    package static func mismatch(_ verb: Script.Verb, on screen: Screen) -> String? {
        switch verb {
        case .expectScreen(let id):
            return screen.id == id ? nil : "expected screen \(id), the flow shows \(screen.id)"
        case .expectText(let text):
            return ScreenSnapshot.text(of: screen).contains(text)
                ? nil : "the screen \(screen.id) does not show \(ScriptText.quoted(text)); it shows:\n\(ScreenSnapshot.text(of: screen))"
        case .expectError(let id, let message):
            let actual: String?
            switch shownError(id, on: screen) {
            case .success(let shown): actual = shown
            case .failure(let missing): return missing.message
            }
            guard actual != message else { return nil }
            let shows = "it shows \(actual.map(ScriptText.quoted) ?? "no error")"
            return if let id {
                "expected error \(ScriptText.quoted(message)) on \(id), \(shows)"
            } else {
                "expected the screen's error \(ScriptText.quoted(message)), \(shows)"
            }
        default:
            return nil
        }
    }

    /// A field the screen does not have.
    package struct MissingField: Error {
        package var message: String
    }

    /// The inline error a field shows (nil: none); with no field, the screen's error status.
    package static func shownError(_ field: ElementID?, on screen: Screen) -> Result<String?, MissingField> {
        guard let field else {
            let shown: String? = if case .error(let text) = screen.status { text } else { nil }
            return .success(shown)
        }
        guard let found = screen.field(field) else {
            return .failure(MissingField(message: "the screen \(screen.id) has no field \(field); \(ScreenOffers.description(of: screen))"))
        }
        return .success(found.error)
    }
}

/// The text of a transcript, built as a run goes.
struct Transcript {
    private var lines: [String]
    private var lastScreen: String?

    init(flow: String) {
        lines = ["flow \(flow)"]
    }

    /// Records a step; a value filled into a secret field is masked.
    mutating func step(_ verb: Script.Verb, secret: Bool = false) {
        if secret, case .fill(let id, _) = verb {
            lines.append("> fill \(id) ********")
        } else {
            lines.append("> \(verb.scriptLine)")
        }
    }

    mutating func show(_ screen: Screen?) {
        guard let screen else {
            lines.append("(the flow has ended)")
            lastScreen = nil
            return
        }
        let text = ScreenSnapshot.text(of: screen)
        if text == lastScreen {
            lines.append("(the screen is unchanged)")
        } else {
            lines.append(text)
        }
        lastScreen = text
    }

    mutating func stuck(_ limit: Duration) {
        lines.append("(the flow did not settle within \(limit))")
    }

    mutating func result(_ outcome: AnyFlowOutcome) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(outcome.value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        lines.append("result \(outcome.name) (\(outcome.status.rawValue)) \(json)")
    }

    var text: String { lines.joined(separator: "\n") + "\n" }
}
