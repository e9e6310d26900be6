import FlowKit

/// The line-by-line renderer: used whenever input or output is not a terminal, with TERM=dumb,
/// and with `--plain` (screen readers, logs).
///
/// It draws each screen as lines of text on its output and asks for one field at a time:
/// numbered options for choices, a re-ask under an inline error message, secrets not echoed.
/// After the last field it takes the screen's primary action; `?` at any prompt lists the
/// other actions. Answers can also be given in advance (`--set ID=VALUE`); without prompting
/// (`--no-input`) a missing answer stops the run with a message that names it.
public actor PlainRenderer: ScreenHost {
    /// Why the renderer stopped asking; once stopped, every flow is told to cancel.
    public enum Stop: Error, Equatable, Sendable {
        /// Input ended while a question was open.
        case endOfInput(question: String)
        /// Prompting is off and no answer was given in advance for a field.
        case missingAnswer(field: ElementID, label: String)
        /// Prompting is off and an answer given in advance was refused.
        case refusedAnswer(field: ElementID, message: String)
        /// Prompting is off and the screen reported an error after its action was taken.
        case failed(String)

        /// A sentence for the person at the terminal.
        public var message: String {
            switch self {
            case .endOfInput(let question):
                "end of input while asking for \(question)"
            case .missingAnswer(let field, let label):
                "no answer for \(label) (\(field)); pass --set \(field)=VALUE"
            case .refusedAnswer(let field, let message):
                "the answer for \(field) was refused: \(message)"
            case .failed(let message):
                message
            }
        }
    }

    private let input: any LineInput
    private let output: any TextOutput
    private let prompts: Bool
    private var answers: [ElementID: String]

    public private(set) var stop: Stop?
    /// Whether, without prompts, the run left a screen that browses (``Screen/browses``) with
    /// nothing left to answer: it ended as the person asked, whatever its result says.
    public private(set) var leftBrowsing = false
    /// The browsing screen left last: the same one again does not leave twice.
    private var leftScreen: Screen?
    private var shownID: ScreenID?
    /// The heading drawn last: a flow's one screen that moves on to another step (a chooser
    /// to what was chosen) keeps its identifier and changes its title, and is drawn again.
    private var shownHeading: String?
    private var shownStatus: ScreenStatus?
    private var shownFooter: [String] = []
    private var answered: Set<ElementID> = []
    private var submitted = false
    /// The screen whose primary action was taken last, to tell a next step from a refusal.
    private var submittedScreen: Screen?
    /// The open question, asked again after a suspend.
    private var lastPrompt = ""

    /// - Parameters:
    ///   - answers: answers given in advance, by field identifier; each is used once.
    ///   - prompts: false never reads input: a field without an answer stops the run.
    public init(
        input: any LineInput,
        output: any TextOutput,
        answers: [ElementID: String] = [:],
        prompts: Bool = true
    ) {
        self.input = input
        self.output = output
        self.answers = answers
        self.prompts = prompts
    }

    // MARK: - ScreenHost

    public func present(_ screen: Screen) async {
        draw(screen)
    }

    public func update(_ screen: Screen) async {
        // A screen on top again after a dismissal is drawn when it next asks for something: a
        // flow that is about to leave it too should not leave it printed in the log.
        guard screen.id == shownID else { return }
        if screen.footer != shownFooter {
            shownFooter = screen.footer
            write(screen.footer)
        }
        if screen.status != shownStatus {
            shownStatus = screen.status
            if let status = screen.status { say(status) }
        }
    }

    public func dismiss(_ screenID: ScreenID) async {
        if shownID == screenID { shownID = nil }
    }

    public func nextEvent(on screen: Screen) async -> UserEvent {
        guard stop == nil else { return .cancel }
        if screen.id != shownID || screen.heading != shownHeading { draw(screen) }

        if submitted {
            // The screen is still here after its action: a new round of questions.
            submitted = false
            answered = []
            let unchanged = screen == submittedScreen
            submittedScreen = nil
            if !prompts {
                if case .error(let message) = screen.status {
                    return halt(.failed(message))
                }
                // Without errors and changed, it is the screen's next step (a confirmation):
                // it is answered like any other. Otherwise say why, as a prompting run would.
                let problems = screen.fieldErrors
                if unchanged || !problems.isEmpty {
                    return halt(.failed(
                        "\(screen.title) did not finish with the answers given"
                            + (problems.isEmpty ? "" : ": " + problems.joined(separator: "; "))
                    ))
                }
            }
        }

        for field in screen.fields {
            if case .table(let rows, let unit, _) = field.input {
                let started = rows.contains { answered.contains(ElementID.cell($0.id, of: field.id)) }
                if let error = field.error, answered.contains(field.id) || !started {
                    // The rows as a whole were refused (after they were answered, or after the
                    // screen's action): said once, and each is asked again.
                    write(["Error: \(error)"])
                    answered.remove(field.id)
                    for row in rows { answered.remove(ElementID.cell(row.id, of: field.id)) }
                }
                for row in rows where !answered.contains(ElementID.cell(row.id, of: field.id)) {
                    let cell = Field(id: ElementID.cell(row.id, of: field.id), label: "\(field.label), \(row.label)", input: .text(row.value), hint: unit)
                    if let event = await ask(cell, on: screen) { return event }
                    if stop != nil { return .cancel }
                }
                answered.insert(field.id)
                continue
            }
            guard field.error != nil || !answered.contains(field.id) else { continue }
            if let event = await ask(field, on: screen) { return event }
            if stop != nil { return .cancel }
        }
        return await chooseAction(on: screen, returningToField: nil) ?? .cancel
    }

    // MARK: - Drawing

    private func draw(_ screen: Screen) {
        guard stop == nil else { return }
        shownID = screen.id
        shownHeading = screen.heading
        shownStatus = screen.status
        shownFooter = screen.footer
        answered = []
        submitted = false
        var lines = ["", "== \(screen.heading) =="]
        if !screen.tabs.isEmpty {
            lines.append("Tabs: " + screen.tabs.map { $0.isSelected ? "[\($0.label)]" : $0.label }.joined(separator: " | "))
        }
        lines += screen.text
        for figure in screen.figures {
            switch FigureDrawing.lines(of: figure) {
            case .drawn(let drawing): lines += [""] + drawing + [""]
            case .badge(let initials, _): lines.append("[\(initials)]")
            case .failed(let reason): lines.append("(\(reason))")
            }
        }
        lines += screen.footer
        if !screen.fields.isEmpty, screen.actions.contains(where: { $0.role != .primary }) {
            lines.append("(Type ? at a prompt for other options.)")
        }
        write(lines)
        if let status = screen.status { say(status) }
    }

    private func say(_ status: ScreenStatus) {
        guard stop == nil else { return }
        switch status {
        case .busy(let label): write(["\(label)..."])
        case .error(let message): write(["Error: \(message)"])
        case .notice(let message): write([message])
        }
    }

    private func write(_ lines: [String]) {
        // Each line and its end, added up by hand: `joined(separator:)` would look up how
        // `String` conforms to `StringProtocol` at run time, which the first time in a process
        // scans every conformance in the binary, on the way to the first screen.
        var text = ""
        for line in lines {
            text += TerminalText.sanitized(line)
            text += "\n"
        }
        output.write(text)
    }

    private func prompt(_ text: String) {
        lastPrompt = text
        output.write(TerminalText.sanitized(text))
    }

    // MARK: - Asking

    /// Asks for one field; nil means the field was settled without an event (kept as it was).
    private func ask(_ field: Field, on screen: Screen) async -> UserEvent? {
        if let error = field.error { write(["Error: \(error)"]) }

        if let given = answers.removeValue(forKey: field.id) {
            if let event = event(for: field, answer: given) {
                answered.insert(field.id)
                return event
            }
            if !prompts {
                return halt(.refusedAnswer(field: field.id, message: "not one of the options of \(field.label)"))
            }
        } else if !prompts {
            if let error = field.error {
                return halt(.refusedAnswer(field: field.id, message: error))
            }
            // A screen that browses asks nothing it was not given: its lists are to look at,
            // and are printed whole.
            if field.hasValue || field.isOptional || screen.browses, !answered.contains(field.id) {
                answered.insert(field.id)
                if screen.browses, !field.input.options.isEmpty {
                    write(["\(field.label):"] + field.input.options.map { "  \($0.label)" + ($0.detail.map { ": \($0)" } ?? "") })
                }
                return nil
            }
            return halt(.missingAnswer(field: field.id, label: field.label))
        }

        var listWhole = false
        while true {
            if !field.input.options.isEmpty { listOptions(field.input.options, whole: listWhole) }
            prompt(promptText(for: field))
            let line: String
            switch await read(secret: field.isSecret) {
            case .line(let text): line = text
            case .end: return halt(.endOfInput(question: field.label))
            case .notUTF8:
                if refuseNotUTF8(for: field.id) { continue }
                return .cancel
            }
            if line == "?" {
                if let event = await chooseAction(on: screen, returningToField: field) { return event }
                if stop != nil { return .cancel }
                continue
            }
            let answer = line == "\\?" ? "?" : line
            if answer.isEmpty, field.hasValue, field.error == nil {
                answered.insert(field.id)
                return nil
            }
            if let event = event(for: field, answer: answer) {
                answered.insert(field.id)
                return event
            }
            write(["Error: \(refusal(for: field))"])
            listWhole = true
        }
    }

    private func promptText(for field: Field) -> String {
        var text = field.label
        if let hint = field.hint { text += " (\(hint))" }
        switch field.input {
        case .text(let value) where !value.isEmpty && field.error == nil:
            text += " [\(value)]"
        case .day(let value, let resolved) where !value.isEmpty && field.error == nil:
            text += " [\(value)" + (resolved.map { ": \($0)" } ?? "") + "]"
        case .money(let value, let currency, _):
            text += " in \(currency)" + (value.isEmpty || field.error != nil ? "" : " [\(value)]")
        case .secret(isSet: true) where field.error == nil:
            text += " [unchanged]"
        case .choice(let options, let selected):
            text += options.count == 1 ? " [1]" : " [1-\(options.count)]"
            if field.error == nil, let current = options.first(where: { $0.id == selected }) { text += " (Enter keeps \(current.label))" }
        case .multiChoice(let options, let selected):
            text += options.count == 1 ? " [1]" : " [1-\(options.count)]"
            let current = options.filter { selected.contains($0.id) }.map(\.label)
            if field.error == nil, !current.isEmpty { text += " (Enter keeps \(current.joined(separator: ", ")))" }
        case .confirm(let value):
            text += " [y/n]"
            if field.error == nil, let value { text += " (Enter keeps \(value ? "yes" : "no"))" }
        default:
            break
        }
        return text + ": "
    }

    /// The most options listed before each question; a longer list is named by its ends, and
    /// listed whole only after an answer that is not one of them.
    static let longList = Choice.longList

    private func listOptions(_ options: [Choice], whole: Bool) {
        if !whole, options.count > Self.longList, let first = options.first, let last = options.last {
            write(["  \(options.count) options, from \(first.label) to \(last.label): type one, or its number"])
            return
        }
        write(options.enumerated().map { "  \($0.offset + 1)) \($0.element.label)" + ($0.element.detail.map { " (\($0))" } ?? "") })
    }

    /// The event an answer makes for a field, or nil when the answer is not one the field takes.
    private func event(for field: Field, answer: String) -> UserEvent? {
        switch field.input {
        case .text, .secret, .money, .day:
            return .fill(field.id, answer)
        case .table:
            return nil
        case .choice(let options, _):
            return pick(answer, from: options).map { .choose(field.id, [$0]) }
        case .multiChoice(let options, _):
            // Separated by commas (names hold spaces), or by spaces (`1 3`).
            for separators in [[","], [",", " "]] as [[Character]] {
                let parts = answer.split(whereSeparator: separators.contains).map(String.init).filter { !$0.trimmingWhitespace().isEmpty }
                let picked = parts.compactMap { pick($0, from: options) }
                if picked.count == parts.count { return .choose(field.id, picked) }
            }
            return nil
        case .confirm:
            switch answer.lowercased() {
            case "y", "yes": return .choose(field.id, [.yes])
            case "n", "no": return .choose(field.id, [.no])
            default: return nil
            }
        }
    }

    private func refusal(for field: Field) -> String {
        switch field.input {
        case .text, .secret, .money, .day, .table: "that answer was not taken"
        case .choice(let options, _): "enter a number from 1 to \(options.count), or an option as written"
        case .multiChoice(let options, _): "enter numbers from 1 to \(options.count), separated by commas"
        case .confirm: "answer y or n"
        }
    }

    /// An option picked by its number, identifier or label.
    private func pick(_ answer: String, from options: [Choice]) -> ElementID? {
        let answer = answer.trimmingWhitespace()
        if let number = Int(answer), options.indices.contains(number - 1) {
            return options[number - 1].id
        }
        return options.first {
            $0.id.rawValue.caseInsensitiveEquals(answer) || $0.label.caseInsensitiveEquals(answer)
                || ($0.detail?.caseInsensitiveEquals(answer) ?? false)
        }?.id
    }

    // MARK: - Actions

    /// Takes the primary action when the form is complete, or asks which action to take.
    /// With `field` set (the user typed `?` there), an empty answer goes back to that field.
    private func chooseAction(on screen: Screen, returningToField field: Field?) async -> UserEvent? {
        var items = screen.actions.map { (label: $0.label, event: UserEvent.tap($0.id), isPrimary: $0.role == .primary) }
        items += screen.tabs.filter { !$0.isSelected }.map { (label: "Go to \($0.label)", event: UserEvent.tap($0.id), isPrimary: false) }
        if !screen.actions.contains(where: { $0.role == .cancel }) {
            items.append((label: "Cancel", event: .cancel, isPrimary: false))
        }

        if !prompts, screen.browses, screen != leftScreen {
            // Nothing left to answer on a screen to look at: it was seen; leave it, once.
            leftScreen = screen
            leftBrowsing = true
            return .back
        }
        if field == nil, !screen.fields.isEmpty, let primary = screen.primaryAction, !(screen.browses && !prompts) {
            submitted = true
            submittedScreen = screen
            return .tap(primary.id)
        }
        if !prompts {
            if screen.browses { return halt(.missingAnswer(field: "action", label: "the action to take on \(screen.title)")) }
            if let primary = screen.primaryAction {
                submitted = true
                submittedScreen = screen
                return .tap(primary.id)
            }
            return halt(.missingAnswer(field: "action", label: "the action to take on \(screen.title)"))
        }

        let defaultIndex = field == nil ? items.firstIndex(where: \.isPrimary) : nil
        while true {
            write(items.enumerated().map { "  \($0.offset + 1)) \($0.element.label)" })
            var text = "Choose [1-\(items.count)]"
            if let defaultIndex { text += " (Enter for \(defaultIndex + 1))" }
            if let field { text += " (Enter to go back to \(field.label))" }
            prompt(text + ": ")
            let answer: String
            switch await read(secret: false) {
            case .line(let text): answer = text
            case .end:
                _ = halt(.endOfInput(question: "the action to take on \(screen.title)"))
                return nil
            case .notUTF8:
                if refuseNotUTF8(for: "action") { continue }
                return nil
            }
            let trimmed = answer.trimmingWhitespace()
            if trimmed.isEmpty {
                if field != nil { return nil }
                if let defaultIndex { return take(items[defaultIndex].event) }
            }
            if let number = Int(trimmed), items.indices.contains(number - 1) {
                return take(items[number - 1].event)
            }
            if let action = screen.actions.first(where: {
                $0.id.rawValue.caseInsensitiveEquals(trimmed) || $0.label.caseInsensitiveEquals(trimmed)
            }) {
                return take(.tap(action.id))
            }
            write(["Error: enter a number from 1 to \(items.count)"])
        }
    }

    /// What a read gave the renderer.
    private enum Answer {
        case line(String)
        case end
        /// Not valid UTF-8: asked again at a terminal, the end of the run from a pipe or a file.
        case notUTF8
    }

    static let notUTF8 = "that line is not valid UTF-8"

    /// Reads an answer; where the input does not echo, writes it after the prompt (a secret as
    /// a mask) so the output reads as a log of the session.
    private func read(secret: Bool) async -> Answer {
        while true {
            let answer: Answer
            switch await input.readLine(secret: secret) {
            case .line(let text): answer = .line(text)
            case .end: answer = .end
            case .notUTF8: answer = .notUTF8
            case .resumed:
                // Back from Ctrl-Z: the shell printed below the question; ask it again.
                output.write(TerminalText.sanitized(lastPrompt))
                continue
            }
            if !input.echoes {
                switch answer {
                case .line(let text): output.write(Self.echo(of: text, secret: secret) + "\n")
                case .end: output.write("\n")
                case .notUTF8: output.write("(\(Self.notUTF8))\n")
                }
            }
            return answer
        }
    }

    /// A line that is not UTF-8: a person at a terminal is asked again (true); from a pipe or a
    /// file the run stops, naming the question, since the lines after it were meant for others.
    private func refuseNotUTF8(for field: ElementID) -> Bool {
        if input.echoes {
            write(["Error: \(Self.notUTF8); type it again"])
            return true
        }
        _ = halt(.refusedAnswer(field: field, message: Self.notUTF8))
        return false
    }

    /// How an answer appears in the log: a secret as a mask, a very long answer shortened.
    static func echo(of line: String, secret: Bool) -> String {
        guard !line.isEmpty else { return "" }
        if secret { return "********" }
        let limit = 200
        guard line.count > limit else { return TerminalText.sanitized(line) }
        return TerminalText.sanitized(String(line.prefix(limit))) + "... (\(line.count) characters)"
    }

    private func take(_ event: UserEvent) -> UserEvent {
        if case .tap = event { submitted = true }
        return event
    }

    private func halt(_ reason: Stop) -> UserEvent {
        stop = reason
        return .cancel
    }
}

extension Field {
    fileprivate var isSecret: Bool {
        if case .secret = input { true } else { false }
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        String(self.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    fileprivate func caseInsensitiveEquals(_ other: String) -> Bool {
        lowercased() == other.lowercased()
    }
}
