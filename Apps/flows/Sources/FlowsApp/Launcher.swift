import ArgumentParser
import FlowKit
import FlowTerminal
import Foundation
import LocalStore

/// Runs a flow from the command line: builds the container and the renderer, runs the flow,
/// prints its result and turns its end into an exit status.
enum Launcher {
    static func launch(flowNamed name: String, options: RunOptions) async throws {
        guard let entry = FlowCatalog.entry(named: name) else {
            throw ValidationError("unknown flow '\(name)'")
        }
        let location: StoreLocation
        do {
            location = try StoreLocation.resolve(environment: ProcessInfo.processInfo.environment)
        } catch {
            complain(error.description)
            throw ExitCode.failure
        }

        let renderer = PlainRenderer(
            input: StandardInput(),
            output: StandardError(),
            answers: try options.parsedAnswers(),
            prompts: !options.noInput
        )
        let outcome = await entry.run(container: .live(location: location), router: AppRouter(host: renderer))

        if options.json {
            print(json(for: outcome))
        }
        if let stop = await renderer.stop {
            complain(stop.message)
            switch stop {
            case .missingAnswer, .refusedAnswer: throw ExitCode(2)
            case .endOfInput, .failed: throw ExitCode.failure
            }
        }
        switch outcome.status {
        case .completed:
            return
        case .failed:
            if let reason = outcome.failureReason { complain(reason) }
            throw ExitCode.failure
        case .declined, .cancelled:
            throw ExitCode.failure
        }
    }

    static func json(for outcome: AnyFlowOutcome) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(outcome.value) else { return #"{"result":"\#(outcome.name)"}"# }
        return String(decoding: data, as: UTF8.self)
    }

    static func complain(_ message: String) {
        StandardError().write("flows: \(message)\n")
    }
}
