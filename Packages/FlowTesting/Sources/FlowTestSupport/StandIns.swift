import FlowKit
import Testing

/// The starter of a ``FlowTest``: a child with an expectation does not run, the parent gets the
/// expected result at once; any other child runs for real. Like workflow-swift's
/// `expectWorkflow(type:producingOutput:)`, it lets a parent be tested without its children's
/// screens.
actor StandIns: FlowStarter {
    private struct Expectation {
        var type: ObjectIdentifier
        var name: String
        var result: any Sendable
        var location: SourceLocation
    }

    private var expected: [Expectation] = []
    /// The type names of the children started, in order.
    private(set) var started: [String] = []

    func expect<Child: Flow>(_ type: Child.Type, producing result: Child.FlowResult, at location: SourceLocation) {
        expected.append(Expectation(type: ObjectIdentifier(type), name: "\(type)", result: result, location: location))
    }

    func start<Child: Flow>(_ child: Child) async -> Child.FlowResult {
        started.append("\(Child.self)")
        if let index = expected.firstIndex(where: { $0.type == ObjectIdentifier(Child.self) }),
           let result = expected[index].result as? Child.FlowResult
        {
            expected.remove(at: index)
            return result
        }
        return await child.perform()
    }

    /// The expectations no child met, once: later calls see only newer ones.
    func takeUnmet() -> [(name: String, location: SourceLocation)] {
        defer { expected = [] }
        return expected.map { ($0.name, $0.location) }
    }
}
