import FlowKit

/// The interactive renderer for a terminal: the whole screen at once, a focus that moves with
/// Tab and the arrows, fields edited in place, inline errors under their fields.
///
/// It draws below what is already on the terminal and repaints only its own region, so the
/// scrollback keeps what happened. Keys: Tab / Shift-Tab or Down / Up move between elements;
/// in a text field, typing edits (Left, Right, Home, End, Backspace, Delete, Ctrl-U, Ctrl-W,
/// Alt-B, Alt-F, Alt-Backspace) and Enter confirms (on the last field it also submits); a money
/// field (and a table) refuses a key no amount could take and says why, and reports its text,
/// like a day's, as it is typed; in a table, Up / Down move between rows, each row edited in
/// place; in a choice, Up / Down or j / k move, typing (or /) filters, and Enter or Space picks;
/// in a multi-choice, Space toggles, and Enter on a filtered list toggles its first match; y / n
/// answer a confirm; Enter takes the focused action; Esc goes back; Ctrl-D cancels; Ctrl-R
/// reads the screen again (``UserEvent/refresh``). Other Alt keys do nothing. The layout for narrow and short terminals is in TTYRenderer+Drawing.
public actor TTYRenderer: ScreenHost {
    // State is internal (not private) so the key handling and the drawing, in files of their
    // own, can reach it; nothing outside the renderer touches it.
    let keys: any KeySource
    let output: any TextOutput
    /// The palette of every drawing; ``restyle(_:)`` changes it while the app runs.
    private(set) var style: TerminalStyle
    let width: @Sendable () -> Int
    let height: @Sendable () -> Int
    let animates: Bool
    let controlsTerminal: Bool
    /// How this terminal draws pictures, if it can.
    let images: TerminalImages?

    public private(set) var stop: PlainRenderer.Stop?
    var screen: Screen?
    var focus = 0
    var editors: [ElementID: LineEditor] = [:]
    var highlights: [ElementID: Int] = [:]
    var picks: [ElementID: Set<ElementID>] = [:]
    var submitAfterFill: ElementID?
    /// The rows of the last drawing as written (without styles), the width it was drawn at, and
    /// where the cursor was left in it: what a repaint needs to find its first row again.
    var drawnRows: [String] = []
    var drawnWidth = 0
    var cursorRow = 0
    var cursorColumn = 0
    /// The first row shown of a screen taller than the terminal.
    var windowTop = 0
    /// The suspends already seen (``TerminalModes/resumes``).
    var seenResumes = 0

    /// Said under the screen's status until the next key (input that was not UTF-8).
    var inputNotice: String?
    var filters: [ElementID: String] = [:]
    /// Typed fields and cells edited since they were last confirmed: leaving one fills it.
    var unconfirmed: Set<ElementID> = []
    /// The shown screen's figures as drawn: a QR code is encoded once, not at every repaint.
    var drawnFigures: [Figure: FigureDrawing.Result] = [:]
    /// Pictures already sent to a kitty terminal, by the id they were sent under; the
    /// placements the region shows now, taken away before it is drawn again.
    var sentPictures: [Picture: UInt32] = [:]
    var placements: [(id: UInt32, placement: UInt32)] = []
    /// Ids for pictures and placements, from a random start: other programs in the same kitty
    /// window number theirs too.
    var nextImageID = UInt32.random(in: 1...0x7FFF_0000)
    var filtering: ElementID?
    var spinner: Task<Void, Never>?
    var frame = 0
    static let frames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

    /// - Parameters:
    ///   - animates: turn the busy mark into a spinner (on a real terminal).
    ///   - controlsTerminal: the output is this process's own terminal (set up with
    ///     ``TerminalModes``): the renderer then tells the signal handlers where its drawing is, so
    ///     Ctrl-C, SIGTERM and Ctrl-Z leave the cursor below it, draws nothing while suspended, and
    ///     draws anew after a resume.
    ///   - images: how the terminal draws pictures (``TerminalImages/detect(environment:tmuxPassthrough:)``);
    ///     without it a picture is drawn as its initials badge.
    ///   - height, width: the terminal's size, asked at every paint.
    public init(
        keys: any KeySource, output: any TextOutput, style: TerminalStyle, animates: Bool = false,
        controlsTerminal: Bool = false, images: TerminalImages? = nil,
        height: @escaping @Sendable () -> Int = { 1_000 }, width: @escaping @Sendable () -> Int
    ) {
        self.images = images
        self.keys = keys
        self.output = output
        self.style = style
        self.animates = animates
        self.controlsTerminal = controlsTerminal
        self.seenResumes = controlsTerminal ? TerminalModes.resumes : 0
        self.height = height
        self.width = width
    }

    /// Draws in `style` from now on, the screen shown included, at once: a theme chosen while
    /// the app runs recolours what is on the terminal without waiting for a key.
    public func restyle(_ style: TerminalStyle) {
        guard style != self.style else { return }
        self.style = style
        if screen != nil { paint() }
    }

    // MARK: - ScreenHost

    public func present(_ screen: Screen) async {
        show(screen, fresh: true)
    }

    public func update(_ screen: Screen) async {
        // A screen on top again after a dismissal is drawn when it next asks for something, so
        // a flow that leaves it at once leaves no copy of it behind.
        guard screen.id == self.screen?.id else { return }
        show(screen, fresh: false)
    }

    public func dismiss(_ screenID: ScreenID) async {
        guard screen?.id == screenID else { return }
        // Leave the last drawing in the scrollback and start below it.
        moveBelowRegion()
        screen = nil
    }

    public func nextEvent(on screen: Screen) async -> UserEvent {
        guard stop == nil else { return .cancel }
        if screen.id != self.screen?.id { show(screen, fresh: true) } else { show(screen, fresh: false) }

        if let primary = submitAfterFill {
            submitAfterFill = nil
            if screen.fields.allSatisfy({ $0.error == nil }) { return .tap(primary) }
        }
        while true {
            paint()
            guard let key = await keys.nextKey() else {
                moveBelowRegion()
                stop = .endOfInput(question: focusedLabel)
                return .cancel
            }
            if let event = handle(key) { return event }
        }
    }

    // MARK: - State

    /// The values of a screen's text, money and day fields and of its tables' cells.
    static func typedValues(of screen: Screen) -> [ElementID: String] {
        var values: [ElementID: String] = [:]
        for field in screen.fields {
            switch field.input {
            case .text(let value), .money(let value, _, _), .day(let value, _): values[field.id] = value
            case .table(let rows, _, _): for row in rows { values[.cell(row.id, of: field.id)] = row.value }
            default: break
            }
        }
        return values
    }

    var elements: [ElementID] { screen?.elementIDs ?? [] }

    /// Whether a secret (a password) is being typed: showing the screen again would empty it.
    var typesSecret: Bool {
        screen?.fields.contains { field in
            guard case .secret(isSet: false) = field.input else { return false }
            return editors[field.id]?.text.isEmpty == false
        } ?? false
    }

    /// How many tabs come before the fields in the focus order.
    var tabCount: Int { screen?.tabs.count ?? 0 }

    var focusedLabel: String {
        guard let screen, (0..<screen.fields.count).contains(focus - tabCount) else { return "the action to take" }
        return screen.fields[focus - tabCount].label
    }

    /// Where the focus starts on a screen: the first field that needs an answer, else the first
    /// action (the primary one, on a screen without fields).
    static func firstFocus(on screen: Screen) -> Int {
        if screen.fields.isEmpty, let primary = screen.actions.firstIndex(where: { $0.role == .primary }) { return screen.tabs.count + primary }
        return screen.tabs.count + (screen.fields.firstIndex { !$0.hasValue || $0.error != nil } ?? screen.fields.count)
    }

    func show(_ next: Screen, fresh: Bool) {
        // Another step of the same screen (other fields, other actions: a preview's form) starts
        // where a new screen would, not at the place the focus had on the step before.
        let anotherStep = !fresh && screen.map { Set($0.fields.map(\.id)) != Set(next.fields.map(\.id)) && Set($0.actions.map(\.id)) != Set(next.actions.map(\.id)) } == true
        if anotherStep { focus = Self.firstFocus(on: next) }
        if fresh {
            if screen != nil { moveBelowRegion() }
            editors = [:]
            highlights = [:]
            picks = [:]
            filters = [:]
            unconfirmed = []
            drawnFigures = [:]
            filtering = nil
            inputNotice = nil
            windowTop = 0
            focus = Self.firstFocus(on: next)
        }
        // A typed value the flow changed (not the one being typed) replaces what its editor holds.
        let before = fresh ? [:] : (screen.map(Self.typedValues) ?? [:])
        for (cell, value) in Self.typedValues(of: next) where editors[cell] == nil || fresh
            || (before[cell] != value && editors[cell]?.text != value) {
            editors[cell] = LineEditor(value)
        }
        for field in next.fields {
            switch field.input {
            case .secret(let isSet) where !isSet: editors[field.id] = LineEditor()
            case .choice(let options, let selected) where highlights[field.id] == nil:
                highlights[field.id] = options.firstIndex { $0.id == selected } ?? 0
            case .multiChoice(_, let selected) where picks[field.id] == nil:
                picks[field.id] = Set(selected)
            case .table(let rows, _, _) where (highlights[field.id] ?? 0) >= rows.count:
                // Fewer rows than before: the last one is the current one.
                highlights[field.id] = max(0, rows.count - 1)
            default: break
            }
        }
        let previous = screen
        let previousStatus = screen?.status
        screen = next
        animate(busy: { if case .busy = next.status { true } else { false } }())
        // After a change, the first field with an error takes the focus back; after a failed
        // submit, the first field that needs an answer again (a cleared password) does.
        // (Only a message that is new: a field typed into key by key must keep the focus.)
        if !fresh, let broken = next.fields.firstIndex(where: { $0.error != nil && previous?.field($0.id)?.error != $0.error }),
           next.tabs.count + broken < focus {
            focus = next.tabs.count + broken
        } else if !fresh, case .error = next.status, next.status != previousStatus,
                  let empty = next.fields.firstIndex(where: { !$0.hasValue }) {
            focus = next.tabs.count + empty
        }
        focus = min(focus, max(0, elements.count - 1))
        paint()
    }
}
