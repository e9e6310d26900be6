import Foundation
import FlowKit
import Synchronization
import Testing

// A small flow's roles, as a flow package writes them, to test what FlowKit gives each role.

private struct NoteState: Equatable, Sendable {
    var text = ""
    var phase = Phase.idle
}

private struct NoteView: View {
    static let screenID: ScreenID = "note"
    static let text: ElementID = "text"
    static let save: ElementID = "save"
    static let cancel: ElementID = "cancel"

    func screen(for state: NoteState) -> Screen {
        Screen(
            id: Self.screenID,
            title: "Note",
            fields: [Field(id: Self.text, label: "Text", input: .text(state.text), error: state.text.isEmpty ? "Write something." : nil)],
            actions: [Action(id: Self.save, label: "Save", role: .primary), Action(id: Self.cancel, label: "Cancel", role: .cancel)],
            status: state.phase.status(busy: "Saving")
        )
    }
}

private enum NoteAction: ViewAction, Equatable {
    typealias ScreenView = NoteView

    case edited(String)
    case save
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .fill(ScreenView.text, let text): .edited(text)
        case .tap(ScreenView.save): .save
        case .tap(ScreenView.cancel), .back, .cancel: .cancel
        default: nil
        }
    }
}

private struct NotePresenter: Presenter {
    typealias Action = NoteAction
    let router: AppRouter
}

/// A host that answers a fixed list of events, then cancels.
private actor ScriptHost: ScreenHost {
    private var events: [UserEvent]
    private(set) var calls: [String] = []

    init(_ events: [UserEvent]) { self.events = events }

    func present(_ screen: Screen) async { calls.append("present \(screen.id)") }
    func update(_ screen: Screen) async { calls.append("update \(screen.id)") }
    func dismiss(_ screenID: ScreenID) async { calls.append("dismiss \(screenID)") }
    func nextEvent(on screen: Screen) async -> UserEvent {
        events.isEmpty ? .cancel : events.removeFirst()
    }
}

@Suite("What FlowKit gives each role")
struct RolesTests {
    @Test("ViewActions skips the events its switch ignores and returns the next action")
    func nextSkipsIgnored() async {
        let host = ScriptHost([.choose("nothing", []), .tap("unknown"), .fill("text", "hi"), .tap("save")])
        let presenter = NotePresenter(router: AppRouter(host: host))
        let actions = await presenter.present(NoteState())
        #expect(await actions.next() == .edited("hi"))
        #expect(await actions.next() == .save)
        #expect(await actions.next() == .cancel)
    }

    @Test("a scoped presentation dismisses its screen on every way out")
    func scopedPresentation() async {
        for (events, expected) in [([UserEvent.tap("save")], "saved"), ([.back], "cancelled")] {
            let host = ScriptHost(events)
            let presenter = NotePresenter(router: AppRouter(host: host))
            let result = await presenter.presenting(NoteState(text: "x")) { view in
                switch await view.next() {
                case .save: "saved"
                case .cancel, .edited: "cancelled"
                }
            }
            #expect(result == expected)
            #expect(await host.calls == ["present note", "dismiss note"])
        }
    }

    @Test("run hands each action to the flow, shows the state after each that does not end it, and dismisses at the end")
    func runLoop() async {
        let host = ScriptHost([.fill("text", "hi"), .tap("unknown"), .tap("save")])
        var state = NoteState()
        var seen: [NoteAction] = []
        let result = await NotePresenter(router: AppRouter(host: host)).run(state) { action, _ in
            seen.append(action)
            switch action {
            case .edited(let text): state.text = text
            case .save: return "saved \(state.text)"
            case .cancel: return "cancelled"
            }
            return nil
        }
        #expect(result == "saved hi")
        #expect(seen == [.edited("hi"), .save])
        #expect(await host.calls == ["present note", "update note", "dismiss note"])
    }

    @Test("submit shows the model busy, answers the service's value, or gives its refusal to the model")
    func submit() async {
        struct Refused: Error {}
        struct NoteModel: SubmittingViewModel {
            var state = NoteState(text: "x")
            mutating func busy() { state.phase = .loading }
            mutating func failed(_ error: Refused) { state.phase = .failed("No.") }
        }
        let host = ScriptHost([])
        let view = await NotePresenter(router: AppRouter(host: host)).present(NoteState())
        var model = NoteModel()
        let saved = await view.submit(&model) { sent throws(Refused) in "saved \(sent.state.text) while \(sent.state.phase)" }
        #expect(saved == "saved x while loading")
        #expect(model.state.phase == .loading)
        model.state.phase = .idle
        await view.show(model.state)
        let refused: Void? = await view.submit(&model) { _ throws(Refused) in throw Refused() }
        #expect(refused == nil)
        #expect(model.state.phase == .failed("No."))
        // Busy, idle again, busy: the refusal reaches the screen with the caller's next show.
        #expect(await host.calls == ["present note", "update note", "update note", "update note"])
    }

    @Test("act shows the model busy, reads the list again and says what was done; a refusal reads it again only where asked, and answers nil")
    func act() async {
        struct Refused: Error, Equatable { let reload: Bool }
        struct ListModel: ActingViewModel {
            var state = NoteState(text: "3 left")
            var reloads = 0
            mutating func busy() { state.phase = .loading }
            mutating func noticed(_ notice: String) { state.text += "; \(notice)" }
            mutating func failed(_ error: Refused) { state.phase = .failed("No.") }
        }
        let host = ScriptHost([])
        let view = await NotePresenter(router: AppRouter(host: host)).present(NoteState())
        var model = ListModel()
        let reload: (inout ListModel) async -> Void = { model in
            model.reloads += 1
            model.state = NoteState(text: "\(3 - model.reloads) left")
        }
        let done = await view.act(&model, reloading: reload) { () throws(Refused) in (7, "Ended one.") }
        #expect(done == 7)
        // Read again after the act (the busy phase goes with it), then told what was done.
        #expect(model.state == NoteState(text: "2 left; Ended one."))
        #expect(model.reloads == 1)
        await view.show(model.state)
        let kept: Int? = await view.act(&model, reloading: reload, reloadAfter: \.reload) { () throws(Refused) in throw Refused(reload: false) }
        #expect(kept == nil)
        #expect(model.state == NoteState(text: "2 left; Ended one.", phase: .failed("No.")))
        #expect(model.reloads == 1)
        await view.show(model.state)
        let moved: Int? = await view.act(&model, reloading: reload, reloadAfter: \.reload) { () throws(Refused) in throw Refused(reload: true) }
        #expect(moved == nil)
        #expect(model.state == NoteState(text: "1 left", phase: .failed("No.")))
        #expect(model.reloads == 2)
        await view.show(model.state)
        // Each act shows the model busy first; what follows is the caller's to show (as `run` does).
        #expect(await host.calls == ["present note"] + Array(repeating: "update note", count: 6))
    }

    @Test("a form runs until the service takes it: an unchecked form is not sent, a refusal stays on the screen, leaving answers nil")
    func runForm() async {
        struct NoteForm: FormView {
            static let screenID = NoteView.screenID
            static let send = NoteView.save
            func screen(for state: NoteState) -> Screen { NoteView().screen(for: state) }
        }
        struct NoteFormModel: FormViewModel {
            var state = NoteState()
            mutating func typed(_ field: ElementID, _ text: String) {
                guard field == NoteView.text else { return }
                state.text = text
                state.phase = .idle
            }
            mutating func checkAll() -> Bool { !state.text.isEmpty }
            mutating func busy() { state.phase = .loading }
            mutating func failed(_ error: Refusal) { state.phase = .failed(error.message) }
        }
        let sent = Mutex<[String]>([])
        let send = { @Sendable (model: NoteFormModel) throws(Refusal) -> String in
            sent.withLock { $0.append(model.state.text) }
            guard model.state.text != "no" else { throw Refusal("Not that.") }
            return "saved \(model.state.text)"
        }
        let host = ScriptHost([.tap("save"), .fill("other", "x"), .fill("text", "no"), .tap("save"), .fill("text", "hi"), .tap("save")])
        let saved = await ScreenPresenter<FormAction<NoteForm>>(router: AppRouter(host: host)).runForm(NoteFormModel(), send: send)
        #expect(saved == "saved hi")
        #expect(sent.withLock { $0 } == ["no", "hi"])

        let left = await ScreenPresenter<FormAction<NoteForm>>(router: AppRouter(host: ScriptHost([.fill("text", "hi")]))).runForm(NoteFormModel(), send: send)
        #expect(left == nil)
        #expect(sent.withLock { $0 } == ["no", "hi"])
    }

    @Test("a phase is the screen's status: none, busy with its label, or the error")
    func phase() {
        #expect(Phase.idle.status(busy: "Saving") == nil)
        #expect(Phase.loading.status(busy: "Saving") == .busy("Saving"))
        #expect(Phase.failed("No.").status(busy: "Saving") == .error("No."))
    }

    @Test("an inventory is drawn from the View over example states: actions once each, every message, details by prefix")
    func drawnInventory() {
        let inventory = FlowInventory(drawing: NoteView(), for: [
            NoteState(text: "x"), NoteState(), NoteState(text: "x", phase: .failed("Disk full: \(FlowInventory.anyDetail)")),
        ])
        #expect(inventory.screens == [.init("note", actions: ["save", "cancel"], fields: ["text"])])
        #expect(inventory.messages == [.exact("Write something."), .pattern(["Disk full: ", ""])])
        #expect(inventory.messages[1].matches("Disk full: /var is read-only"))
        // A detail anywhere: a name first, or two details in one message.
        let named = FlowInventory(drawing: NoteView(), for: [
            NoteState(text: "x", phase: .failed("\(FlowInventory.anyDetail) is away.")),
            NoteState(text: "x", phase: .failed("Moved \(FlowInventory.anyDetail) to \(FlowInventory.anyDetail).")),
        ])
        #expect(named.messages == [.pattern(["", " is away."]), .pattern(["Moved ", " to ", "."])])
        #expect(named.messages[0].matches("Sam Park is away."))
        #expect(!named.messages[0].matches("Sam Park is here."))
        #expect(named.messages[1].matches("Moved 12.00 EUR to 13.41 USD."))
        #expect(!named.messages[1].matches("Moved 12.00 EUR into 13.41 USD."))
        #expect(named.messages[1].description == "\"Moved ... to ....\"")
        let both = inventory + FlowInventory(screens: [.init("other", actions: ["ok"])], messages: [.exact("Write something.")])
        #expect(both.screens.map(\.id) == ["note", "other"])
        #expect(both.messages.count == 2)
    }

    @Test("a child menu gives its entries as actions and tabs, and starts the one tapped from the parent")
    func childMenu() async {
        let menu = ChildMenu<String, String>([
            .init("first", "First", role: .primary) { parent in "\(parent) started first" },
            .init("second", "Second") { parent in "\(parent) started second" },
        ])
        #expect(menu.actions == [Action(id: "first", label: "First", role: .primary), Action(id: "second", label: "Second")])
        #expect(menu.tabs(selected: "second").map(\.isSelected) == [false, true])
        #expect(await menu.open("second", in: "home") == "home started second")
        #expect(await menu.open("third", in: "home") == nil)
    }

    @Test("a result is named after its case, in kebab case, whether or not the case carries values")
    func outcomeNames() {
        enum Outcome: FlowOutcome {
            case signedIn(String)
            case addExpense
            case movedTo(place: String, day: Int)
            case closed
            case cancelled
        }
        #expect(Outcome.signedIn("ada").name == "signed-in")
        #expect(Outcome.addExpense.name == "add-expense")
        #expect(Outcome.movedTo(place: "Home", day: 3).name == "moved-to")
        #expect(Outcome.closed.name == "closed")
        #expect(Outcome.cancelled.name == "cancelled")
    }

    @Test("a result is completed, or cancelled for its cancel, unless it says otherwise; it encodes as its name and its details")
    func outcomeDefaults() throws {
        enum Outcome: FlowOutcome {
            case saved(String)
            case cancelled
            func encodeDetails(to container: inout KeyedEncodingContainer<OutcomeCodingKey>) throws {
                if case .saved(let what) = self { try container.encode(what, forKey: "what") }
            }
        }
        #expect(Outcome.saved("x").status == .completed)
        #expect(Outcome.cancelled.status == .cancelled)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(Outcome.saved("x")), as: UTF8.self) == #"{"result":"saved","what":"x"}"#)
        #expect(String(decoding: try encoder.encode(Outcome.cancelled), as: UTF8.self) == #"{"result":"cancelled"}"#)
    }

    @Test("by default a result writes labelled values under their labels and one unlabelled value under its type's name; values without labels, a lone string, or none, write nothing")
    func outcomeDefaultDetails() throws {
        struct Person: Encodable, Equatable, Sendable { var name: String }
        struct URLTag: Encodable, Equatable, Sendable { var url: String }
        enum Outcome: FlowOutcome {
            case met(Person)
            case moved(Person, to: String)
            case tagged(URLTag)
            case said(String)
            case ended(sessions: Int)
            case linked(contact: Person, account: Person?)
            case cancelled
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let met = String(decoding: try encoder.encode(Outcome.met(Person(name: "Ada"))), as: UTF8.self)
        #expect(met == #"{"person":{"name":"Ada"},"result":"met"}"#)
        let moved = String(decoding: try encoder.encode(Outcome.moved(Person(name: "Ada"), to: "Oslo")), as: UTF8.self)
        #expect(moved == #"{"result":"moved"}"#)
        let tagged = String(decoding: try encoder.encode(Outcome.tagged(URLTag(url: "x"))), as: UTF8.self)
        #expect(tagged == #"{"result":"tagged","urlTag":{"url":"x"}}"#)
        #expect(String(decoding: try encoder.encode(Outcome.said("hi")), as: UTF8.self) == #"{"result":"said"}"#)
        #expect(String(decoding: try encoder.encode(Outcome.ended(sessions: 2)), as: UTF8.self) == #"{"result":"ended","sessions":2}"#)
        let linked = String(decoding: try encoder.encode(Outcome.linked(contact: Person(name: "Sam"), account: nil)), as: UTF8.self)
        #expect(linked == #"{"account":null,"contact":{"name":"Sam"},"result":"linked"}"#)
        #expect(String(decoding: try encoder.encode(Outcome.cancelled), as: UTF8.self) == #"{"result":"cancelled"}"#)
    }

    @Test("the router starts children through its starter, which a test can replace")
    func starter() async {
        actor Child: Flow {
            func perform() async -> Outcome { .done }
        }
        enum Outcome: String, FlowOutcome {
            case done, cancelled
            var name: String { rawValue }
            var status: FlowOutcomeStatus { self == .done ? .completed : .cancelled }
        }
        final class StandIn: FlowStarter {
            let started = Mutex<[String]>([])
            func start<F: Flow>(_ child: F) async -> F.FlowResult {
                started.withLock { $0.append("\(F.self)") }
                return .cancelled
            }
        }
        #expect(await AppRouter(host: ScriptHost([])).start(Child()) == .done)
        let standIn = StandIn()
        #expect(await AppRouter(host: ScriptHost([]), starter: standIn).start(Child()) == .cancelled)
        #expect(standIn.started.withLock { $0 } == ["Child"])
    }
}
