import FlowKit

/// Records a live session as a script: a host that passes everything to the host it wraps and
/// writes down what the user did, with the screens and errors they saw as expectations.
///
/// Replaying the recording checks the flow still behaves as it did: every new screen becomes an
/// `expect screen`, every inline or screen error an `expect error`, the end an `expect result`.
/// Values typed into secret fields are recorded as typed, since a replay needs them: keep the
/// file private.
public actor ScriptRecorder: ScreenHost {
    private let inner: any ScreenHost
    private var lines: [String]
    private var lastScreen: ScreenID?

    public init(wrapping inner: any ScreenHost, flow: String) {
        self.inner = inner
        lines = [
            "# Recorded with flows run \(flow) --record. Secret answers are written as typed.",
            "flow \(flow)",
        ]
    }

    public func present(_ screen: Screen) async { await inner.present(screen) }
    public func update(_ screen: Screen) async { await inner.update(screen) }
    public func dismiss(_ screenID: ScreenID) async { await inner.dismiss(screenID) }

    public func nextEvent(on screen: Screen) async -> UserEvent {
        var expectations: [String] = []
        if screen.id != lastScreen { expectations.append(Script.Verb.expectScreen(screen.id).scriptLine) }
        for field in screen.fields {
            if let error = field.error { expectations.append(Script.Verb.expectError(field.id, error).scriptLine) }
        }
        if case .error(let message) = screen.status {
            expectations.append(Script.Verb.expectError(nil, message).scriptLine)
        }
        let event = await inner.nextEvent(on: screen)
        // Text being typed is not a step: the fill that confirms it is.
        guard let verb = Self.verb(for: event) else { return event }
        lastScreen = screen.id
        lines += expectations + [verb.scriptLine]
        return event
    }

    /// The script so far, ended with the flow's result.
    public func script(endingWith outcome: AnyFlowOutcome) -> String {
        (lines + [Script.Verb.expectResult(outcome.name).scriptLine]).joined(separator: "\n") + "\n"
    }

    private static func verb(for event: UserEvent) -> Script.Verb? {
        switch event {
        case .fill(let id, let value): .fill(id, value)
        case .edit: nil
        case .choose(let id, let options): .choose(id, options.map(\.rawValue))
        case .tap(let id): .tap(id)
        case .back: .back
        case .cancel: .cancel
        case .refresh: .refresh
        }
    }
}
