import FlowKit
import Testing

/// A host that records what it is asked to do.
actor RecordingHost: ScreenHost {
    private(set) var calls: [String] = []
    private(set) var screens: [Screen] = []
    var answer: UserEvent = .cancel

    func present(_ screen: Screen) async { record("present \(screen.id)", screen) }
    func update(_ screen: Screen) async { record("update \(screen.id)", screen) }
    func dismiss(_ screenID: ScreenID) async { calls.append("dismiss \(screenID)") }
    func nextEvent(on screen: Screen) async -> UserEvent {
        record("next \(screen.id)", screen)
        return answer
    }

    private func record(_ call: String, _ screen: Screen) {
        calls.append(call)
        screens.append(screen)
    }
}

@Suite("AppRouter")
struct AppRouterTests {
    @Test("stamps breadcrumbs, reveals the screen under a dismissed one")
    func stack() async {
        let host = RecordingHost()
        let router = AppRouter(host: host)
        await router.present(Screen(id: "welcome", title: "Welcome"))
        await router.present(Screen(id: "sign-in", title: "Sign in"))
        #expect(await router.breadcrumb == ["Welcome", "Sign in"])
        #expect(await host.screens.last?.breadcrumb == ["Welcome"])

        await router.dismiss("sign-in")
        #expect(await host.calls == ["present welcome", "present sign-in", "dismiss sign-in", "update welcome"])
        #expect(await router.topScreen?.id == "welcome")
    }

    @Test("an update that changes nothing is not sent; one that does is")
    func updates() async {
        let host = RecordingHost()
        let router = AppRouter(host: host)
        let screen = Screen(id: "home", title: "Home")
        await router.present(screen)
        await router.update(screen)
        var busy = screen
        busy.status = .busy("Working")
        await router.update(busy)
        #expect(await host.calls == ["present home", "update home"])
    }

    @Test("asking for an event on a screen that is gone gets cancel")
    func lostScreen() async {
        let router = AppRouter(host: RecordingHost())
        #expect(await router.nextEvent(on: "nowhere") == .cancel)
    }

    @Test("an alert is a popup with OK, gone once answered")
    func alert() async {
        let host = RecordingHost()
        let router = AppRouter(host: host)
        await router.present(Screen(id: "home", title: "Home"))
        await router.alert(title: "Saved", message: "Your change is saved.")
        let popup = await host.screens.first { $0.id == "alert" }
        #expect(popup?.actions.map(\.id) == ["ok"])
        #expect(popup?.text == ["Your change is saved."])
        #expect(await router.topScreen?.id == "home")
    }

    @Test("a tab's own screens show the tabs; the tab on show does nothing; another one is back, named to open next, unless the flow goes on")
    func tabs() async {
        let host = ScriptedHost(answers: [.tap("a"), .tap("other"), .back, .tap("b")])
        let router = AppRouter(host: host)
        await router.present(Screen(id: "home", title: "Home"))
        let tabs = [Tab(id: "a", label: "A", isSelected: true), Tab(id: "b", label: "B", isSelected: false)]
        // The child takes back once (as a question closed), then leaves at the second.
        let (events, next) = await router.start(TabChild(router: router, leaveAfter: 2), asTabAmong: tabs)
        #expect(events == .events(["tap(other)", "back", "back"]))
        #expect(next == "b", "the last event was the tab tapped")
        let drawn = await host.drawn
        #expect(drawn.first { $0.id == "tab" }?.tabs == tabs)
        #expect(drawn.first { $0.id == "popup" }?.tabs == [], "what the tab opens over its screen has none")
        #expect(await router.topScreen?.tabs == [], "the home draws its own")

        // A tab tapped, then something else: the tab is no longer where the user is going.
        let again = ScriptedHost(answers: [.tap("b"), .tap("other"), .back])
        let second = AppRouter(host: again)
        let (_, none) = await second.start(TabChild(router: second, leaveAfter: 2), asTabAmong: tabs)
        #expect(none == nil)
    }

    @Test("a tab's notice is said on its own screens whenever they say nothing else, never on what it opens over them, and not after it")
    func tabNotice() async {
        let host = ScriptedHost(answers: [])
        let router = AppRouter(host: host)
        await router.present(Screen(id: "home", title: "Home"))
        let tabs = [Tab(id: "a", label: "A", isSelected: true)]
        _ = await router.start(NoticedTab(router: router), asTabAmong: tabs, saying: "Offline since 14:02.")
        let drawn = await host.drawn.map { "\($0.id.rawValue): \($0.status.map { "\($0)" } ?? "-")" }
        #expect(drawn == [
            "home: -",
            "tab: notice(\"Offline since 14:02.\")",
            "popup: -",
            "tab: notice(\"Offline since 14:02.\")",
            "tab: error(\"Refused.\")",
            "tab: notice(\"Offline since 14:02.\")",
            "home: -",
        ], "the tab again once the popup goes, its own error, the notice again, then the home, which says its own")
    }
}

/// A tab's flow whose screen says nothing, then an error of its own, then nothing again.
private actor NoticedTab: Flow {
    enum FlowResult: FlowOutcome {
        case done
        case cancelled
    }

    let router: AppRouter

    init(router: AppRouter) { self.router = router }

    func perform() async -> FlowResult {
        await router.present(Screen(id: "tab", title: "Tab"))
        await router.present(Screen(id: "popup", title: "Popup"))
        await router.dismiss("popup")
        await router.update(Screen(id: "tab", title: "Tab", status: .error("Refused.")))
        await router.update(Screen(id: "tab", title: "Tab"))
        await router.dismiss("tab")
        return .done
    }
}

/// A host that answers each event from a list, then cancel; it keeps every screen drawn.
private actor ScriptedHost: ScreenHost {
    private var answers: [UserEvent]
    private(set) var drawn: [Screen] = []

    init(answers: [UserEvent]) { self.answers = answers }

    func present(_ screen: Screen) async { drawn.append(screen) }
    func update(_ screen: Screen) async { drawn.append(screen) }
    func dismiss(_ screenID: ScreenID) async {}
    func nextEvent(on screen: Screen) async -> UserEvent { answers.isEmpty ? .cancel : answers.removeFirst() }
}

/// A tab's flow: one screen, a popup over it once, and the events it got until the
/// `leaveAfter`-th back.
private actor TabChild: Flow {
    enum FlowResult: FlowOutcome {
        case events([String])
        case cancelled
    }

    let router: AppRouter
    let leaveAfter: Int

    init(router: AppRouter, leaveAfter: Int) {
        self.router = router
        self.leaveAfter = leaveAfter
    }

    func perform() async -> FlowResult {
        await router.present(Screen(id: "tab", title: "Tab"))
        await router.present(Screen(id: "popup", title: "Popup"))
        await router.dismiss("popup")
        var events: [String] = []
        var backs = 0
        while backs < leaveAfter {
            let event = await router.nextEvent(on: "tab")
            switch event {
            case .back: backs += 1; events.append("back")
            case .tap(let id): events.append("tap(\(id.rawValue))")
            default: return .cancelled
            }
        }
        await router.dismiss("tab")
        return .events(events)
    }
}
