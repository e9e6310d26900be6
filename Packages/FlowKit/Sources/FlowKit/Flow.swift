/// A user path of the app, from its first screen to its typed result.
///
/// A flow is an actor: it owns the path, listens for user actions through its ViewActions,
/// calls domain services, starts its children and awaits their results. It never prints and
/// never reads input itself: it talks to people only through the screens its Presenter shows.
public protocol Flow<FlowResult>: Actor {
    /// What the path ends with. Every result type can say the user cancelled.
    associatedtype FlowResult: FlowOutcome

    /// Runs the path to its end.
    func perform() async -> FlowResult
}

/// The typed result of a flow.
///
/// `name` is a short kebab-case word (`signed-in`, `cancelled`) used by the CLI's `--json`
/// output and by scripts that expect a result: by default the case's own name (`signedIn` is
/// `signed-in`). The encoded form is `{"result": name, ...}`, the rest written by
/// ``encodeDetails(to:)``. A result says only what it carries: its status is `completed`,
/// `cancelled` for ``cancelled``, unless it says otherwise.
public protocol FlowOutcome: Sendable, Equatable, Encodable {
    /// The result of a flow the user cancelled; a cancelled flow has written nothing itself.
    /// What a child it started kept (an expense added from the home), the child's own result
    /// says, and that result is not `cancelled`.
    static var cancelled: Self { get }

    /// The short name of this result; by default its case's name in kebab case.
    var name: String { get }

    /// How the path ended, which decides the CLI's exit code.
    var status: FlowOutcomeStatus { get }

    /// Why the path failed, in a sentence for the user; nil unless the status is `failed`.
    var failureReason: String? { get }

    /// Writes what the result carries beside its name (`"user": ...`). By default, a case's
    /// labelled values each under its label (`answered(accepted: [Friend])` writes `"accepted"`,
    /// `linked(contact: Friend, account: Friend)` both), and a case's one unlabelled value, when
    /// it can be encoded, under its type's name in lower camel case: `signedIn(User)` writes
    /// `"user"`, a `URLRequest` would write `"urlRequest"`. An unlabelled value of the standard
    /// library's (a string, a number, an array, an optional), values some of which have no
    /// label, or one that goes in another form is written by the result's own `encodeDetails`.
    func encodeDetails(to container: inout KeyedEncodingContainer<OutcomeCodingKey>) throws
}

extension FlowOutcome {
    /// The case's name in kebab case: `signedIn(user)` is `signed-in`, `cancelled` is
    /// `cancelled`. (Read by reflection: a name is asked for once a flow has ended.)
    public var name: String {
        let mirror = Mirror(reflecting: self)
        // A case with values is the enum's one child, labelled with the case's name; a case
        // without is described by its name.
        let caseName = mirror.displayStyle == .enum ? mirror.children.first?.label ?? String(describing: self) : String(describing: self)
        var name = ""
        for character in caseName {
            if character.isUppercase {
                if !name.isEmpty { name += "-" }
                name += character.lowercased()
            } else {
                name.append(character)
            }
        }
        return name
    }

    public var failureReason: String? { nil }

    /// Completed, or cancelled for ``cancelled``: a result that can be declined or can fail
    /// says so itself.
    public var status: FlowOutcomeStatus { self == .cancelled ? .cancelled : .completed }

    public func encodeDetails(to container: inout KeyedEncodingContainer<OutcomeCodingKey>) throws {
        let mirror = Mirror(reflecting: self)
        // A case's values are its one child: a tuple when they are labelled or several.
        guard mirror.displayStyle == .enum, let payload = mirror.children.first?.value else { return }
        let values = Mirror(reflecting: payload)
        if values.displayStyle == .tuple {
            // Written only when every value has a label: an unlabelled one is labelled by its
            // place (`.0`), which is no key, and half the details would mislead.
            let labelled = values.children.compactMap { child -> (String, any Encodable)? in
                guard let label = child.label, !label.hasPrefix("."), label != OutcomeCodingKey.result.stringValue,
                      let value = child.value as? any Encodable
                else { return nil }
                return (label, value)
            }
            guard labelled.count == values.children.count else { return }
            for (label, value) in labelled { try container.encode(value, forKey: OutcomeCodingKey(stringValue: label)) }
            return
        }
        guard let value = payload as? any Encodable, !(value is String || value is Bool || value is any Numeric),
              let key = Self.detailsKey(for: String(describing: type(of: value))), key != OutcomeCodingKey.result.stringValue
        else { return }
        try container.encode(value, forKey: OutcomeCodingKey(stringValue: key))
    }

    /// A type's name in lower camel case (`User` is `user`, `URLRequest` is `urlRequest`); nil
    /// for a name that is not one plain word (`Array<User>`, `Optional<User>`).
    private static func detailsKey(for typeName: String) -> String? {
        guard typeName.first?.isUppercase == true, typeName.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
        let characters = Array(typeName)
        // The leading capitals are lowered, but the last of several when a word follows it.
        var leading = characters.prefix { $0.isUppercase }.count
        if leading > 1, leading < characters.count { leading -= 1 }
        return characters[..<leading].map { $0.lowercased() }.joined() + String(characters[leading...])
    }

    /// `{"result": name}` and the details.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: OutcomeCodingKey.self)
        try container.encode(name, forKey: .result)
        try encodeDetails(to: &container)
    }
}

/// How a flow ended.
public enum FlowOutcomeStatus: String, Sendable, Equatable, Codable {
    /// The user got what they came for.
    case completed
    /// The user said no (declined a confirmation, for example).
    case declined
    /// The user cancelled; nothing was written.
    case cancelled
    /// The path could not be completed (a store that cannot be opened, for example).
    case failed
}
