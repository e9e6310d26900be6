import ArgumentParser
import FlowTerminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The entry point of the `flows` executable.
public enum FlowsCLI {
    /// The version `flows --version` prints.
    public static let version = "0.1.0"

    /// Parses `arguments`, runs the command and returns the exit status: 0 done, 1 failed,
    /// declined or cancelled, 2 usage error. Interrupts exit at once with 130.
    public static func main(arguments: [String] = Array(CommandLine.arguments.dropFirst())) async -> Int32 {
        installSignalHandlers()
        let status = await run(arguments)
        // A result that could not be written is a failure, whatever the command said.
        if let problem = StandardOutput.problem {
            StandardError().write("flows: \(problem)\n")
            return status == 0 ? 1 : status
        }
        return status
    }

    private static func run(_ arguments: [String]) async -> Int32 {
        // The argument parser builds every option of the root command (and checks for a request
        // of a completion script) before it answers --version: asked alone, it is answered here.
        if arguments == ["--version"] {
            StandardOutput.line(version)
            return 0
        }
        do {
            if let name = plainLaunch(arguments) {
                try await Launcher.launch(flowNamed: name, options: LaunchOptions())
                return 0
            }
            var command = try ReadCommands.handles(arguments) ? ReadCommands.parseAsRoot(arguments) : FlowsCommand.parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            return 0
        } catch let error as UsageError {
            // Messages can quote what was typed: made safe for the terminal like every screen.
            StandardError().write(TerminalText.sanitized("flows: \(error)\n"))
            return 2
        } catch let code as ExitCode {
            // A command that ended with a status has said what it had to: the parser's message
            // for it is empty, and working it out builds the whole help by reflection (a
            // millisecond at the end of every `flows run` that stops early).
            return code == .validationFailure ? 2 : code.rawValue
        } catch {
            let code = FlowsCommand.exitCode(for: error)
            let message = FlowsCommand.fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { StandardOutput.line(message) }
                return 0
            }
            if !message.isEmpty { StandardError().write(TerminalText.sanitized(message + "\n")) }
            // ArgumentParser reports usage errors as EX_USAGE (64); our convention is 2.
            return code == .validationFailure ? 2 : code.rawValue
        }
    }

    /// The flow to launch when `arguments` are `flows` alone or `flows run NAME` with a flow's
    /// name and no option, and the environment holds nothing the options would refuse: a launch
    /// the argument parser would make with every option at its default. Its parse (every option
    /// built by reflection, a check for a completion script) cost more than the rest of a start.
    private static func plainLaunch(_ arguments: [String]) -> String? {
        let name: String
        switch arguments.count {
        case 0: name = "App"
        case 2 where arguments[0] == "run" && !arguments[1].hasPrefix("-"): name = arguments[1]
        default: return nil
        }
        guard FlowCatalog.entry(named: name) != nil, (try? LaunchOptions().validate()) != nil else { return nil }
        return name
    }

    /// Ctrl-C and SIGTERM put the cursor below the drawing and the terminal back as it was before
    /// the process ends; Ctrl-Z and `fg` restore the terminal and set its mode again.
    private static func installSignalHandlers() {
        // A closed pipe is a failed write to report, not a silent death by SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        TerminalModes.installJobControl()
        signal(SIGINT) { _ in
            // End the open prompt's line too, so the shell's prompt starts on a line of its own.
            TerminalModes.leave(endingLine: true)
            _exit(130)
        }
        signal(SIGTERM) { _ in
            TerminalModes.leave(endingLine: false)
            _exit(143)
        }
    }
}
