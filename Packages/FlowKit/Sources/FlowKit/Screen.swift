/// What a passive View shows: a plain value that any renderer can draw and any test can read.
///
/// A screen has a title, blocks of text, input fields, actions and a status. Every interactive
/// element carries an ``ElementID``. Renderers never learn what the screen means; flows never
/// learn how it is drawn.
public struct Screen: Equatable, Sendable, Codable {
    /// The screen's own identifier (`sign-in`), used by `expect screen` and by renderers.
    public var id: ScreenID
    public var title: String
    /// Paragraphs of text shown under the title.
    public var text: [String]
    /// Pictures shown under the text, drawn by each renderer as it can.
    public var figures: [Figure]
    public var fields: [Field]
    public var actions: [Action]
    public var status: ScreenStatus?
    /// The titles of the screens under this one, outermost first; set by the ``AppRouter``.
    public var breadcrumb: [String]
    /// The tabs of a tabbed flow (Account, Friends, Expenses), one of them selected; choosing
    /// one is a `tap` of its identifier.
    public var tabs: [Tab]
    /// Paragraphs shown under the fields, before the actions: what the answers so far come to
    /// (an expense's parts as they are typed).
    public var footer: [String]
    /// Phrases of the text and of the options' labels that say which way money goes (`owes
    /// you 5.00 EUR`, `You owe Bob Stone 12.00 EUR`), each drawn in its tone wherever it
    /// stands. The words already say it; a tone lets the eye find it.
    public var tones: [TonedPhrase]
    /// A screen to look at and move on from (a tab, a list, a preview), not a form to send:
    /// run without prompts and with nothing left to answer, a renderer leaves it (back) rather
    /// than take its primary action.
    public var browses: Bool

    public init(
        id: ScreenID,
        title: String,
        text: [String] = [],
        figures: [Figure] = [],
        fields: [Field] = [],
        actions: [Action] = [],
        status: ScreenStatus? = nil,
        breadcrumb: [String] = [],
        tabs: [Tab] = [],
        footer: [String] = [],
        tones: [TonedPhrase] = [],
        browses: Bool = false
    ) {
        self.id = id
        self.title = title
        self.text = text
        self.figures = figures
        self.fields = fields
        self.actions = actions
        self.status = status
        self.breadcrumb = breadcrumb
        self.tabs = tabs
        self.footer = footer
        self.tones = tones
        self.browses = browses
    }

    /// The field with this identifier, if the screen has one.
    public func field(_ id: ElementID) -> Field? { fields.first { $0.id == id } }

    /// The table field and its row that a cell identifier (``ElementID/cell(_:of:)``) names.
    public func cell(_ id: ElementID) -> (field: Field, row: TableRow)? {
        for field in fields {
            guard case .table(let rows, _, _) = field.input, let rowID = id.row(in: field.id),
                  let row = rows.first(where: { $0.id == rowID }) else { continue }
            return (field, row)
        }
        return nil
    }

    /// The action with this identifier, if the screen has one.
    public func action(_ id: ElementID) -> Action? { actions.first { $0.id == id } }

    /// The action a renderer takes when the user submits the form as a whole (Enter).
    public var primaryAction: Action? { actions.first { $0.role == .primary } }

    /// The breadcrumb and the title, as renderers head a screen: `Welcome > Sign in`.
    public var heading: String {
        // Joined by hand: the standard library's `joined(separator:)` looks up how `String`
        // conforms to `StringProtocol` at run time, which a process's first time scans every
        // conformance in the binary, on the way to every first screen.
        breadcrumb.reduce(into: "") { heading, crumb in heading += crumb + " > " } + title
    }

    /// Every identifier the screen offers, in the order they are shown: tabs, fields, actions.
    public var elementIDs: [ElementID] { tabs.map(\.id) + fields.map(\.id) + actions.map(\.id) }
}

/// One input of a screen.
public struct Field: Equatable, Sendable, Codable {
    public var id: ElementID
    public var label: String
    public var input: Input
    /// What the field accepts, shown beside it ("at least 8 characters").
    public var hint: String?
    /// The inline validation message, shown under the field until its value is fixed.
    public var error: String?
    /// The field may stay empty (a note, a choice of nobody): a run without prompts does not ask
    /// for it.
    public var isOptional: Bool

    public init(id: ElementID, label: String, input: Input, hint: String? = nil, error: String? = nil, isOptional: Bool = false) {
        self.id = id
        self.label = label
        self.input = input
        self.hint = hint
        self.error = error
        self.isOptional = isOptional
    }

    /// Whether the field holds a value (a secret counts as holding one once it is set).
    public var hasValue: Bool {
        switch input {
        case .text(let value): !value.isEmpty
        case .secret(let isSet): isSet
        case .choice(_, let selected): selected != nil
        case .multiChoice(_, let selected): !selected.isEmpty
        case .confirm(let value): value != nil
        case .money(let value, _, _), .day(let value, _): !value.isEmpty
        case .table(let rows, _, _): rows.allSatisfy { !$0.value.isEmpty }
        }
    }
}

/// The kind of a field, with its current value.
public enum Input: Equatable, Sendable, Codable {
    /// Free text, shown as typed.
    case text(String)
    /// A secret (a password): never shown, never part of a screen's value; only whether it is set.
    case secret(isSet: Bool)
    /// One of several options.
    case choice([Choice], selected: ElementID?)
    /// Any number of several options.
    case multiChoice([Choice], selected: [ElementID])
    /// Yes or no.
    case confirm(Bool?)
    /// An amount as typed (`12.50`), in a currency with that many decimals: renderers show the
    /// currency beside it and refuse, as it is typed, what no amount in it could be.
    case money(String, currency: String, decimals: Int)
    /// A day as typed (`2026-11-22`, `today`, `yesterday`, `fri`) and, once the flow has read
    /// it, the day it is (`Friday 2026-11-20`), shown beside it.
    case day(String, resolved: String?)
    /// One value per row, edited in place (each person's exact amount, percentage or shares), in
    /// a unit (`EUR`, `%`, `shares`) with at most `decimals` decimals. Each cell is filled on its
    /// own, by the identifier ``ElementID/cell(_:of:)`` makes of the field's and the row's.
    case table([TableRow], unit: String, decimals: Int)

    /// The options of a choice or multi-choice field; empty for other kinds.
    public var options: [Choice] {
        switch self {
        case .choice(let options, _), .multiChoice(let options, _): options
        case .text, .secret, .confirm, .money, .day, .table: []
        }
    }

    /// Whether the value is typed (filled), not picked (chosen).
    public var isTyped: Bool {
        switch self {
        case .text, .secret, .money, .day: true
        case .choice, .multiChoice, .confirm, .table: false
        }
    }

    /// A one-word name of the kind, as scripts and error messages speak of it.
    public var kindName: String {
        switch self {
        case .text: "text"
        case .secret: "secret"
        case .choice: "choice"
        case .multiChoice: "multi-choice"
        case .confirm: "confirm"
        case .money: "money"
        case .day: "day"
        case .table: "table"
        }
    }
}

/// One option of a choice or multi-choice field.
public struct Choice: Equatable, Sendable, Codable {
    /// The most options a plain listing (the plain renderer, transcripts) names one by one; a
    /// longer list (currencies) is summed up by its ends.
    public static let longList = 20

    public var id: ElementID
    public var label: String
    /// What else tells the option apart (an email), shown beside the label; typing its start
    /// filters, and typing it whole picks the option, as the label does.
    public var detail: String?

    public init(id: ElementID, label: String, detail: String? = nil) {
        self.id = id
        self.label = label
        self.detail = detail
    }

    /// Whether a filter typed by the user matches, without case: anywhere in the label, or the
    /// start of the detail (`bob@` finds bob@example.com; `.com` does not find every email).
    public func matches(_ filter: String) -> Bool {
        let filter = filter.lowercased()
        return filter.isEmpty || label.lowercased().contains(filter) || (detail?.lowercased().hasPrefix(filter) ?? false)
    }
}

/// One row of a ``Input/table(_:unit:decimals:)`` field.
public struct TableRow: Equatable, Sendable, Codable {
    public var id: ElementID
    public var label: String
    /// The value as typed.
    public var value: String
    /// What the value comes to, shown after it (`→ 14.00 EUR`).
    public var note: String?

    public init(id: ElementID, label: String, value: String, note: String? = nil) {
        self.id = id
        self.label = label
        self.value = value
        self.note = note
    }
}

extension Identifier where Kind == ElementKind {
    /// The identifier of one cell of a table field: `parts.bob-stone` for row `bob-stone` of
    /// `parts`. Scripts fill it (`fill parts.bob-stone 12.00`) and `--set` answers it.
    public static func cell(_ row: ElementID, of table: ElementID) -> ElementID {
        ElementID("\(table.rawValue).\(row.rawValue)")
    }

    /// The row this cell identifier names in `table`, or nil when it is not one of its cells.
    public func row(in table: ElementID) -> ElementID? {
        let prefix = table.rawValue + "."
        guard rawValue.hasPrefix(prefix), rawValue.count > prefix.count else { return nil }
        return ElementID(String(rawValue.dropFirst(prefix.count)))
    }
}

/// Something the user can do on a screen besides filling fields.
public struct Action: Equatable, Sendable, Codable {
    public var id: ElementID
    public var label: String
    public var role: Role

    public init(id: ElementID, label: String, role: Role = .secondary) {
        self.id = id
        self.label = label
        self.role = role
    }

    /// How an action relates to the screen's form.
    public enum Role: String, Equatable, Sendable, Codable {
        /// Submits the form (Enter); a screen has at most one.
        case primary
        /// Goes somewhere else (create an account instead of signing in).
        case secondary
        /// Leaves the screen without doing anything (quit, cancel).
        case cancel
    }
}

extension Action {
    /// The usual way out of a form: leaves it and drops what it holds.
    public static let cancel = Action(id: .cancel, label: "Cancel", role: .cancel)
    /// The usual way out of a screen that shows, or back a step.
    public static let back = Action(id: .back, label: "Back", role: .cancel)
}

extension Identifier where Kind == ElementKind {
    /// The identifier of ``Action/cancel``.
    public static var cancel: ElementID { "cancel" }
    /// The identifier of ``Action/back``.
    public static var back: ElementID { "back" }
}

/// One tab of a tabbed screen.
/// Which way money goes, for the user: to them (`positive`: they are owed) or from them
/// (`negative`: they owe).
public enum Tone: String, Equatable, Sendable, Codable {
    case positive
    case negative
}

/// A phrase a screen's text or options hold, and its tone.
public struct TonedPhrase: Equatable, Sendable, Codable {
    public var phrase: String
    public var tone: Tone

    public init(_ phrase: String, _ tone: Tone) {
        self.phrase = phrase
        self.tone = tone
    }
}

public struct Tab: Equatable, Sendable, Codable {
    public var id: ElementID
    public var label: String
    public var isSelected: Bool

    public init(id: ElementID, label: String, isSelected: Bool = false) {
        self.id = id
        self.label = label
        self.isSelected = isSelected
    }
}

extension Screen {
    /// What the screen says is wrong with the answers given: each field's error, as
    /// "Label: message", in the order of the fields.
    public var fieldErrors: [String] {
        fields.compactMap { field in field.error.map { "\(field.label): \($0)" } }
    }
}

/// A picture a screen shows under its text.
public enum Figure: Hashable, Sendable, Codable {
    /// A QR code of the text: terminals draw its modules (dark on light, with a quiet zone, so a
    /// phone reads it whatever the theme); scripts see the text it holds.
    case qrCode(String)
    /// Someone's initials on a colour of the avatar palette (`red`, `orange`, `yellow`, `green`,
    /// `teal`, `blue`, `purple`, `pink`): terminals draw a coloured badge, or the initials in
    /// brackets without colour.
    case initials(String, colour: String)
    /// A picture (a PNG or a JPEG file): terminals that draw images show it; the others show
    /// the initials badge it falls back to.
    case picture(Picture)
}

/// The bytes of an image file, what kind it is, its size in pixels, and the badge drawn where
/// the image cannot be.
public struct Picture: Hashable, Sendable, Codable {
    public enum Format: String, Sendable, Codable {
        case png
        case jpeg
    }

    public var bytes: [UInt8]
    public var format: Format
    public var width: Int
    public var height: Int
    /// The badge (``Figure/initials(_:colour:)``) drawn instead on a terminal without images.
    public var initials: String
    public var colour: String

    public init(bytes: [UInt8], format: Format, width: Int, height: Int, initials: String, colour: String) {
        self.bytes = bytes
        self.format = format
        self.width = width
        self.height = height
        self.initials = initials
        self.colour = colour
    }

    /// Hashes the size and 256 bytes spread over the file, not all of them: a renderer keys
    /// what it drew by figure at every repaint, and a picture may be a megabyte.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(format)
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(bytes.count)
        for index in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 256)) { hasher.combine(bytes[index]) }
        hasher.combine(initials)
        hasher.combine(colour)
    }
}

/// What a screen is doing or has to say, beside its content.
public enum ScreenStatus: Equatable, Sendable, Codable {
    /// Work is under way; the label says what.
    case busy(String)
    /// Something went wrong that is not about one field.
    case error(String)
    /// Something the user should know.
    case notice(String)
}
