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
}
