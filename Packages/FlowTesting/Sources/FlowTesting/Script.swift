import FlowKit

/// A script: user intents and expectations, one step per line, addressed by identifier.
///
/// The format is described in docs/scripts.md. Scripts drive flows from `flows run --script`,
/// `flows test` and the ``FlowTest`` Swift API alike.
public struct Script: Equatable, Sendable {
    /// Where the script came from, for messages (`Goldens/SignUp/happy-path.flows`).
    public var file: String
    /// The flow the script drives, from its `flow NAME` line, if it has one.
    public var flow: String?
    public var steps: [Step]

    public init(file: String, flow: String? = nil, steps: [Step]) {
        self.file = file
        self.flow = flow
        self.steps = steps
    }

    /// One line of a script.
    public struct Step: Equatable, Sendable {
        public var line: Int
        public var action: Verb

        public init(line: Int, _ action: Verb) {
            self.line = line
            self.action = action
        }
    }

    /// What a step does.
    public enum Verb: Equatable, Sendable {
        /// Sets up the test container: before the flow starts (`given account ...`), or, once it
        /// has, a write by someone else while the flow waits on its screen.
        case given([String])
        case fill(ElementID, String)
        case choose(ElementID, [String])
        case tap(ElementID)
        case back
        case cancel
        /// The screen is told that what it shows may have changed elsewhere.
        case refresh
        case expectScreen(ScreenID)
        case expectText(String)
        /// A field's inline error; with no field, the screen's error status.
        case expectError(ElementID?, String)
        case expectResult(String)
        /// The store holds exactly what it held once the `given` steps were done: nothing the
        /// flow did was kept (what a cancelled flow promises).
        case expectStoreUnchanged

        /// The event the step sends, for steps that act on the screen.
        var event: UserEvent? {
            switch self {
            case .fill(let id, let value): .fill(id, value)
            case .choose(let id, let options): .choose(id, options.map { ElementID($0) })
            case .tap(let id): .tap(id)
            case .back: .back
            case .cancel: .cancel
            case .refresh: .refresh
            case .given, .expectScreen, .expectText, .expectError, .expectResult, .expectStoreUnchanged: nil
            }
        }

        /// The step as a script line.
        public var scriptLine: String {
            switch self {
            case .given(let words): (["given"] + words.map(ScriptText.quotedIfNeeded)).joined(separator: " ")
            case .fill(let id, let value): "fill \(id) \(ScriptText.valueText(value))"
            case .choose(let id, let options): (["choose", id.rawValue] + options.map(ScriptText.quotedIfNeeded)).joined(separator: " ")
            case .tap(let id): "tap \(id)"
            case .back: "back"
            case .cancel: "cancel"
            case .refresh: "refresh"
            case .expectScreen(let id): "expect screen \(id)"
            case .expectText(let text): "expect text \(ScriptText.quoted(text))"
            case .expectError(let id?, let message): "expect error \(id) \(ScriptText.quoted(message))"
            case .expectError(nil, let message): "expect error \(ScriptText.quoted(message))"
            case .expectResult(let name): "expect result \(name)"
            case .expectStoreUnchanged: "expect store unchanged"
            }
        }
    }
}
