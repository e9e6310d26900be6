import FlowKit
import Foundation
import Mustache
import QRCode

/// A ``Screen`` as an HTML page: one form holding the screen's fields and actions, which works
/// without JavaScript.
///
/// - The title is the page's `h1`, the breadcrumb and the tabs are navigation.
/// - Every field has its label; a field's hint and error are tied to it (`aria-describedby`), an
///   error also marks it invalid.
/// - Choices are fieldsets: one option is a button that sends the form with that option chosen;
///   several are checkboxes; a long list is a select.
/// - The status is a live region (`role="status"`, an error `role="alert"`).
/// - Phrases that say which way money goes are marked by more than colour: an arrow and a
///   hidden word for screen readers.
///
/// Every value goes into the page through a template that escapes it: a screen's text can never
/// become markup.
public enum WebPage {
    /// What a page's form carries besides the screen: the session's token against forged posts,
    /// and which version of the screen the page shows (a post from an older one is refused).
    public struct Stamp: Sendable, Equatable {
        public var csrf: String
        public var version: Int

        public init(csrf: String, version: Int) {
            self.csrf = csrf
            self.version = version
        }
    }

    /// The page for `screen`.
    ///
    /// - Parameters:
    ///   - theme: the user's theme (`light`, `dark`, `high-contrast`, `no-colour`); nil follows
    ///     the browser's light or dark setting.
    ///   - notice: a message of the page itself, not the flow's (a post from an out-of-date page).
    ///   - refresh: seconds after which the page loads itself again (the flow is still at work).
    public static func html(for screen: Screen, stamp: Stamp, theme: String? = nil, notice: String? = nil, refresh: Int? = nil) -> String {
        let model = PageModel(screen: screen, stamp: stamp, theme: theme, notice: notice, refresh: refresh)
        return library?.render(model, withTemplate: "page") ?? ""
    }

    /// A page with no form: a message and a link back to the app (an expired or forged post).
    public static func message(title: String, text: String) -> String {
        library?.render(["title": title, "text": text], withTemplate: "message") ?? ""
    }

    /// The field names a page's form posts its values under.
    enum Name {
        /// A typed field or a table's cell: `f:` and its identifier.
        static func field(_ id: ElementID) -> String { "f:" + id.rawValue }
        /// A select's choice: `c:` and the field's identifier.
        static func select(_ id: ElementID) -> String { "c:" + id.rawValue }
        /// The options ticked in a multi-choice field: `m:` and its identifier, once per option.
        static func multi(_ id: ElementID) -> String { "m:" + id.rawValue }
        /// An option button (or yes / no) of a choice: `choose:` and the field's identifier.
        static func choose(_ id: ElementID) -> String { "choose:" + id.rawValue }
        /// Which multi-choice fields the form holds (an unticked box posts nothing).
        static let present = "present"
        /// Typed fields the user confirmed (their names), sent even when unchanged.
        static let confirmed = "confirmed"
        /// `1` on a live post: what is typed, as it stands, for a preview (``UserEvent/edit(_:_:)``).
        static let live = "live"
        /// The action or tab tapped.
        static let action = "do"
        /// The ``action`` of the page's script once the server told it of a change made
        /// elsewhere (``UserEvent/refresh``).
        static let refresh = ":refresh"
        static let csrf = "csrf"
        static let version = "version"
    }

    // The templates are constants of this module: one that did not parse leaves every page
    // empty, which every test of a page sees.
    private static let library: MustacheLibrary? = {
        var library = MustacheLibrary()
        do {
            try library.register(WebTemplates.page, named: "page")
            try library.register(WebTemplates.run, named: "run")
            try library.register(WebTemplates.message, named: "message")
        } catch {
            return nil
        }
        return library
    }()
}

// MARK: - What the template reads

/// A screen as the page template reads it: plain values, every decision about markup made here.
struct PageModel {
    let theme: String
    let documentTitle: String
    let title: String
    let crumbs: [String]
    let hasCrumbs: Bool
    let tabs: [TabModel]
    let hasTabs: Bool
    let status: StatusModel?
    /// The page's own message (not the flow's).
    let pageNotice: String?
    let paragraphs: [Phrases]
    let figures: [FigureModel]
    let fields: [FieldModel]
    let footer: [Phrases]
    let actions: [ActionModel]
    /// What Enter in a field sends: the primary action, or nothing but the fields.
    let defaultAction: String
    let csrf: String
    let version: String
    let screenID: String
    let refresh: String?

    init(screen: Screen, stamp: WebPage.Stamp, theme: String?, notice: String?, refresh: Int?) {
        let tones = Tones(screen.tones)
        self.theme = theme ?? "auto"
        documentTitle = screen.heading.replacingOccurrences(of: " > ", with: " · ")
        title = screen.title
        crumbs = screen.breadcrumb
        hasCrumbs = !screen.breadcrumb.isEmpty
        tabs = screen.tabs.map { TabModel(id: $0.id.rawValue, label: $0.label, current: $0.isSelected) }
        hasTabs = !screen.tabs.isEmpty
        status = screen.status.map(StatusModel.init)
        pageNotice = notice
        paragraphs = screen.text.map(tones.phrases)
        figures = screen.figures.map(FigureModel.init)
        fields = screen.fields.map { FieldModel($0, tones: tones) }
        footer = screen.footer.map(tones.phrases)
        actions = screen.actions.map(ActionModel.init)
        defaultAction = screen.primaryAction?.id.rawValue ?? ""
        csrf = stamp.csrf
        version = String(stamp.version)
        screenID = screen.id.rawValue
        self.refresh = refresh.map(String.init)
    }
}

struct TabModel {
    let id: String
    let label: String
    let current: Bool
}

struct StatusModel {
    let busy: String?
    let error: String?
    let notice: String?

    init(_ status: ScreenStatus) {
        switch status {
        case .busy(let label): (busy, error, notice) = (label, nil, nil)
        case .error(let message): (busy, error, notice) = (nil, message, nil)
        case .notice(let message): (busy, error, notice) = (nil, nil, message)
        }
    }
}

/// A text cut into runs, each plain or in a tone.
struct Phrases {
    let runs: [Run]

    struct Run {
        let text: String
        let owed: Bool
        let owing: Bool
    }
}

/// The screen's toned phrases, found in any text of it.
struct Tones {
    private let phrases: [TonedPhrase]

    init(_ phrases: [TonedPhrase]) {
        // The longest first, so a phrase inside another is not cut out of it.
        self.phrases = phrases.filter { !$0.phrase.isEmpty }.sorted { $0.phrase.count > $1.phrase.count }
    }

    func phrases(_ text: String) -> Phrases {
        Phrases(runs: runs(Substring(text)))
    }

    private func runs(_ text: Substring) -> [Phrases.Run] {
        guard !text.isEmpty else { return [] }
        for toned in phrases {
            guard let range = text.range(of: toned.phrase) else { continue }
            return runs(text[..<range.lowerBound])
                + [Phrases.Run(text: String(text[range]), owed: toned.tone == .positive, owing: toned.tone == .negative)]
                + runs(text[range.upperBound...])
        }
        return [Phrases.Run(text: String(text), owed: false, owing: false)]
    }
}

struct FigureModel {
    /// An image's `src` (a data URL) and its text alternative.
    let image: Image?
    /// A badge of initials on a colour of the avatar palette.
    let badge: Badge?

    struct Image {
        let source: String
        let alternative: String
    }

    struct Badge {
        let initials: String
        let colour: String
    }
    /// Why the figure is not drawn.
    let failed: String?

    init(_ figure: Figure) {
        switch figure {
        case .qrCode(let text):
            do throws(QRCode.EncodingError) {
                let svg = WebFigures.svg(try QRCode.encode(text, correction: .medium))
                image = Image(source: "data:image/svg+xml;base64," + Data(svg.utf8).base64EncodedString(), alternative: "QR code of \(text)")
                (badge, failed) = (nil, nil)
            } catch {
                (image, badge, failed) = (nil, nil, "This text is too long for a QR code.")
            }
        case .initials(let initials, let colour):
            (image, badge, failed) = (nil, Badge(initials: initials, colour: WebFigures.colour(colour)), nil)
        case .picture(let picture):
            let type = picture.format == .png ? "image/png" : "image/jpeg"
            image = Image(source: "data:\(type);base64," + Data(picture.bytes).base64EncodedString(), alternative: "Picture of \(picture.initials)")
            (badge, failed) = (nil, nil)
        }
    }
}

struct ActionModel {
    let id: String
    let label: String
    let primary: Bool
    let leaves: Bool

    init(_ action: Action) {
        id = action.id.rawValue
        label = action.label
        primary = action.role == .primary
        leaves = action.role == .cancel
    }
}

struct OptionModel {
    let id: String
    let label: Phrases
    let detail: String?
    let selected: Bool
}

/// One field as the template draws it: exactly one of its kinds is set.
struct FieldModel {
    let domID: String
    let label: String
    let hint: String?
    let hintID: String?
    let error: String?
    let errorID: String?
    /// The ids of the hint and the error, for `aria-describedby`.
    let describedBy: String?
    let optional: Bool

    let text: TextInput?
    let choice: ChoiceInput?
    let select: ChoiceInput?
    let multi: ChoiceInput?
    let confirm: ChoiceInput?
    let table: TableInput?

    struct TextInput {
        let name: String
        let value: String
        let type: String
        let inputMode: String?
        let autocomplete: String?
        let pattern: String?
        /// What is shown after the input: a currency, or the day a typed day is.
        let suffix: String?
    }

    struct ChoiceInput {
        let name: String
        let options: [OptionModel]
        let none: Bool
    }

    struct TableInput {
        let unit: String
        let rows: [Row]

        struct Row {
            let domID: String
            let name: String
            let label: String
            let value: String
            let note: String?
            let pattern: String
        }
    }

    init(_ field: Field, tones: Tones) {
        domID = "f-" + field.id.rawValue
        label = field.label
        hint = field.hint
        hintID = field.hint == nil ? nil : domID + "-hint"
        error = field.error
        errorID = field.error == nil ? nil : domID + "-error"
        let described = [hintID, errorID].compactMap { $0 }
        describedBy = described.isEmpty ? nil : described.joined(separator: " ")
        optional = field.isOptional
        var (text, choice, select, multi, confirm, table): (TextInput?, ChoiceInput?, ChoiceInput?, ChoiceInput?, ChoiceInput?, TableInput?)
        let name = WebPage.Name.field(field.id)
        switch field.input {
        case .text(let value):
            let email = field.id.rawValue.contains("email")
            text = TextInput(
                name: name, value: value, type: email ? "email" : "text", inputMode: nil, autocomplete: email ? "email" : nil, pattern: nil, suffix: nil
            )
        case .secret:
            let new = field.id.rawValue.contains("new") || (field.hint ?? "").contains("at least")
            text = TextInput(
                name: name, value: "", type: "password", inputMode: nil, autocomplete: new ? "new-password" : "current-password", pattern: nil,
                suffix: nil
            )
        case .money(let value, let currency, let decimals):
            text = TextInput(
                name: name, value: value, type: "text", inputMode: decimals > 0 ? "decimal" : "numeric", autocomplete: "off",
                pattern: WebFigures.amountPattern(decimals: decimals), suffix: currency
            )
        case .day(let value, let resolved):
            text = TextInput(name: name, value: value, type: "text", inputMode: nil, autocomplete: "off", pattern: nil, suffix: resolved)
        case .choice(let options, let selected):
            let models = options.map { OptionModel(id: $0.id.rawValue, label: tones.phrases($0.label), detail: $0.detail, selected: $0.id == selected) }
            let input = ChoiceInput(name: options.count > Choice.longList ? WebPage.Name.select(field.id) : WebPage.Name.choose(field.id), options: models, none: selected == nil)
            if options.count > Choice.longList { select = input } else { choice = input }
        case .multiChoice(let options, let selected):
            let models = options.map { OptionModel(id: $0.id.rawValue, label: tones.phrases($0.label), detail: $0.detail, selected: selected.contains($0.id)) }
            multi = ChoiceInput(name: WebPage.Name.multi(field.id), options: models, none: selected.isEmpty)
        case .confirm(let value):
            confirm = ChoiceInput(
                name: WebPage.Name.choose(field.id),
                options: [
                    OptionModel(id: ElementID.yes.rawValue, label: tones.phrases("Yes"), detail: nil, selected: value == true),
                    OptionModel(id: ElementID.no.rawValue, label: tones.phrases("No"), detail: nil, selected: value == false),
                ],
                none: value == nil
            )
        case .table(let rows, let unit, let decimals):
            table = TableInput(unit: unit, rows: rows.map { row in
                let cell = ElementID.cell(row.id, of: field.id)
                return TableInput.Row(
                    domID: "f-" + cell.rawValue, name: WebPage.Name.field(cell), label: row.label, value: row.value, note: row.note,
                    pattern: WebFigures.amountPattern(decimals: decimals)
                )
            })
        }
        (self.text, self.choice, self.select, self.multi, self.confirm, self.table) = (text, choice, select, multi, confirm, table)
    }
}

/// Figures and input rules as the web draws them.
enum WebFigures {
    /// A QR code as SVG: one path of dark modules on a light square, with a quiet zone of four,
    /// so a phone reads it whatever the page's theme.
    static func svg(_ matrix: QRMatrix) -> String {
        let quiet = 4
        let side = matrix.size + 2 * quiet
        var path = ""
        for row in 0..<matrix.size {
            for column in 0..<matrix.size where matrix.isDark(row: row, column: column) {
                path += "M\(column + quiet) \(row + quiet)h1v1h-1z"
            }
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\" shape-rendering=\"crispEdges\">"
            + "<rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/><path d=\"\(path)\" fill=\"#000\"/></svg>"
    }

    /// The avatar palette's colours by name; any other is grey.
    static func colour(_ name: String) -> String {
        ["red", "orange", "yellow", "green", "teal", "blue", "purple", "pink"].contains(name) ? name : "grey"
    }

    /// What an amount field takes as it is typed, as on the terminal: digits, and a point with at
    /// most `decimals` after it.
    static func amountPattern(decimals: Int) -> String {
        decimals > 0 ? "[0-9]*([.,][0-9]{0,\(decimals)})?" : "[0-9]*"
    }
}

// MARK: - Keys the templates read

// Each model names its keys for the templates itself (MustacheParent): looking them up by
// reflection, as Mustache does otherwise, took most of a page's drawing (a form of a dozen
// choices: 50 ms in a debug build, against 4 ms for the rest of a round trip).

extension PageModel: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "theme": theme
        case "documentTitle": documentTitle
        case "title": title
        case "crumbs": crumbs
        case "hasCrumbs": hasCrumbs
        case "tabs": tabs
        case "hasTabs": hasTabs
        case "status": status
        case "pageNotice": pageNotice
        case "paragraphs": paragraphs
        case "figures": figures
        case "fields": fields
        case "footer": footer
        case "actions": actions
        case "defaultAction": defaultAction
        case "csrf": csrf
        case "version": version
        case "screenID": screenID
        case "refresh": refresh
        default: nil
        }
    }
}

extension TabModel: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "id": id
        case "label": label
        case "current": current
        default: nil
        }
    }
}

extension StatusModel: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "busy": busy
        case "error": error
        case "notice": notice
        default: nil
        }
    }
}

extension Phrases: MustacheParent {
    func child(named key: String) -> Any? { key == "runs" ? runs : nil }
}

extension Phrases.Run: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "text": text
        case "owed": owed
        case "owing": owing
        default: nil
        }
    }
}

extension FigureModel: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "image": image
        case "badge": badge
        case "failed": failed
        default: nil
        }
    }
}

extension FigureModel.Image: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "source": source
        case "alternative": alternative
        default: nil
        }
    }
}

extension FigureModel.Badge: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "initials": initials
        case "colour": colour
        default: nil
        }
    }
}

extension ActionModel: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "id": id
        case "label": label
        case "primary": primary
        case "leaves": leaves
        default: nil
        }
    }
}

extension OptionModel: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "id": id
        case "label": label
        case "detail": detail
        case "selected": selected
        default: nil
        }
    }
}

extension FieldModel: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "domID": domID
        case "label": label
        case "hint": hint
        case "hintID": hintID
        case "error": error
        case "errorID": errorID
        case "describedBy": describedBy
        case "optional": optional
        case "text": text
        case "choice": choice
        case "select": select
        case "multi": multi
        case "confirm": confirm
        case "table": table
        default: nil
        }
    }
}

extension FieldModel.TextInput: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "name": name
        case "value": value
        case "type": type
        case "inputMode": inputMode
        case "autocomplete": autocomplete
        case "pattern": pattern
        case "suffix": suffix
        default: nil
        }
    }
}

extension FieldModel.ChoiceInput: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "name": name
        case "options": options
        case "none": none
        default: nil
        }
    }
}

extension FieldModel.TableInput: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "unit": unit
        case "rows": rows
        default: nil
        }
    }
}

extension FieldModel.TableInput.Row: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "domID": domID
        case "name": name
        case "label": label
        case "value": value
        case "note": note
        case "pattern": pattern
        default: nil
        }
    }
}
