import ArgumentParser
import FlowKit
import FlowTerminal
import FlowTesting
import Foundation
import LocalStore
import Preferences

/// Runs a flow from the command line: builds the container and the renderer, runs the flow,
/// prints its result and turns its end into an exit status.
enum Launcher {
    static func launch(flowNamed name: String, options: LaunchOptions) async throws {
        guard let entry = FlowCatalog.entry(named: name) else {
            throw ValidationError("unknown flow '\(name)'")
        }
        let environment = ProcessEnvironment()
        let location = try storeLocation()
        let answers = try options.parsedAnswers()
        // Drawing the inventories costs start-up time: only answers given in advance need it.
        if !answers.isEmpty { try entry.checkAnswers(answers.keys) }
        let recording = try options.record.map(Recording.init(path:))
        // The interactive renderer needs a person at a real terminal; answers given in advance,
        // --no-input, pipes and TERM=dumb get the plain one.
        let interactive = !options.plain && !options.noInput && answers.isEmpty
            && isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1 && environment["TERM"] != "dumb"
        // Colours and pictures read many variables: only a terminal's renderer needs them.
        let variables = interactive ? ProcessInfo.processInfo.environment : [:]
        let plain = PlainRenderer(input: StandardInput(), output: StandardError(), answers: answers, prompts: !options.noInput)
        let keys = interactive ? TerminalKeys() : nil
        let tty = keys.map { keys in
            TTYRenderer(
                keys: keys,
                output: StandardError(),
                style: .resolve(options.color, environment: variables, outputIsTerminal: true, theme: options.theme ?? .dark),
                animates: true,
                controlsTerminal: true,
                images: TerminalImages.detect(environment: variables, tmuxPassthrough: tmuxPassesSequencesOn),
                height: { TerminalModes.height() },
                width: { TerminalModes.width() }
            )
        }
        let renderer: any ScreenHost = tty ?? plain
        let recorder = recording.map { _ in ScriptRecorder(wrapping: renderer, flow: entry.name) }
        let watch = ScreenWatch(wrapping: recorder ?? renderer)
        if interactive { TerminalModes.enableInteractive() }
        let container = try container(options: options, location: location)
        if let tty, options.theme == nil {
            await follow(container.terminalThemes, on: tty, options: options, environment: variables)
        }
        // Open on a terminal, the app syncs now and then (docs/sync.md), and the screen open
        // reads again when a sync changed what it may show; a script's run is its answers alone.
        let background = keys.flatMap { keys in
            AppContainer.backgroundSyncInterval(in: variables).flatMap { container.syncingInBackground(every: $0) { keys.changedElsewhere() } }
        }
        let outcome = await entry.run(container: container, router: AppRouter(host: watch))
        background?.cancel()
        if interactive {
            await tty?.finish()
            TerminalModes.restore()
        }
        // A run ends with a sync when writes made offline wait (docs/sync.md): the server may be
        // back. (Nothing is asked of it otherwise: every write already pulled.)
        await container.pushWaitingWrites()
        var recordingFailed = false
        if let recorder, let recording {
            do throws(LocalStoreError) {
                try recording.file.write(await recorder.script(endingWith: outcome))
            } catch {
                complain("cannot write the recording: \(error.description)")
                recordingFailed = true
            }
        }

        let ttyStop = await tty?.stop
        let stop = await plain.stop ?? ttyStop
        if options.json {
            // One result object, always: a run that stopped early failed, with what went wrong.
            if let stop {
                StandardOutput.line(json(failure: await watch.problem ?? stop.message, stopped: stop.message))
            } else {
                StandardOutput.line(json(for: outcome))
            }
        }
        if let stop {
            complain(stop.message)
            switch stop {
            case .missingAnswer, .refusedAnswer: throw ExitCode(2)
            case .endOfInput, .failed: throw ExitCode.failure
            }
        }
        if recordingFailed { throw ExitCode.failure }
        // Without prompts, a flow to look at ends once it was seen: that is done, not cancelled.
        if await plain.leftBrowsing, outcome.status == .cancelled { return }
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

    /// The file a run is recorded to: checked before the run, so a recording that cannot be
    /// written is said at once rather than after the session.
    struct Recording {
        let file: PrivateFile

        init(path: String) throws {
            file = PrivateFile(url: URL(fileURLWithPath: path))
            do throws(LocalStoreError) {
                try file.write("")
            } catch {
                throw UsageError("cannot write the recording: \(error.description)")
            }
        }
    }

    /// Runs a flow from a script file on the real store, writing its transcript to standard error.
    static func launch(flowNamed name: String, script path: String, options: LaunchOptions) async throws {
        guard let entry = FlowCatalog.entry(named: name) else {
            throw UsageError("unknown flow '\(name)'")
        }
        let script: Script
        do {
            script = try ScriptParser.parse(try ScriptFiles.read(path), file: path)
        } catch let problem as ScriptParser.Problem {
            throw UsageError(problem.description)
        } catch {
            throw UsageError("\(error)")
        }
        if let named = script.flow, FlowCatalog.entry(named: named)?.name != entry.name {
            throw UsageError("\(path) is a script for \(named), not \(entry.name)")
        }
        if let given = script.steps.first(where: { if case .given = $0.action { true } else { false } }) {
            throw UsageError("\(path):\(given.line): given steps set up a test store; they run only under flows test")
        }
        let location = try storeLocation()
        let container = try container(options: options, location: location)
        let run = await ScriptRunner.run(script, flow: entry.name) { router in
            await entry.run(container: container, router: router)
        }
        StandardError().write(TerminalText.sanitized(run.transcript))
        if options.json, let outcome = run.outcome {
            StandardOutput.line(json(for: outcome))
        }
        if let failure = run.failure {
            complain(failure.description)
            throw ExitCode.failure
        }
        guard run.outcome?.status == .completed else { throw ExitCode.failure }
    }

    /// The result of a run that stopped before its flow ended.
    /// Lets the signed-in user's stored theme colour the terminal, unless colour is off for this
    /// run (NO_COLOR, TERM=dumb, --color never): `--theme` wins too, and the caller does not
    /// attach the manager then.
    private static func follow(_ themes: TerminalThemeManager, on tty: TTYRenderer, options: LaunchOptions, environment: [String: String]) async {
        let start = TerminalStyle.resolve(options.color, environment: environment, outputIsTerminal: true)
        guard start.colors else { return }
        await themes.attach { theme in
            let palette = theme.flatMap { TerminalStyle.Theme(rawValue: $0.rawValue) } ?? start.theme
            await tty.restyle(TerminalStyle.resolve(options.color, environment: environment, outputIsTerminal: true, theme: palette))
        }
    }

    static func json(failure: String, stopped: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let object = ["result": "failed", "error": failure, "stopped": stopped]
        guard let data = try? encoder.encode(object) else { return #"{"result":"failed"}"# }
        return String(decoding: data, as: UTF8.self)
    }

    static func json(for outcome: AnyFlowOutcome) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(outcome.value) else { return #"{"result":"\#(outcome.name)"}"# }
        return String(decoding: data, as: UTF8.self)
    }

    /// The app on the store on this machine, or on the server the options name.
    static func container(options: LaunchOptions, location: StoreLocation) throws -> AppContainer {
        guard let server = try options.serverURL() else { return AppContainer.live(location: location) }
        return AppContainer.remote(server: server, location: location)
    }

    /// Where the store lives (FLOWS_HOME, else XDG_DATA_HOME/flows, else ~/.local/share/flows);
    /// when that cannot be worked out, says why and fails.
    static func storeLocation() throws -> StoreLocation {
        do {
            return try StoreLocation.resolve { ProcessEnvironment()[$0] }
        } catch {
            complain(error.description)
            throw ExitCode.failure
        }
    }

    static func complain(_ message: String) {
        StandardError().write(TerminalText.sanitized("flows: \(message)\n"))
    }

    /// Whether the tmux this runs in passes escape sequences on to the terminal outside
    /// (`allow-passthrough` on or all): only then can a picture be drawn inside tmux.
    static func tmuxPassesSequencesOn() -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux", "show-options", "-gv", "allow-passthrough"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let value = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return process.terminationStatus == 0 && (value == "on" || value == "all")
    }

}

/// A command line that cannot run as written: said in one line, exit status 2, no usage dump.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
