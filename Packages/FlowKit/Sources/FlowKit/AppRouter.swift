/// Keeps the stack of screens on show and routes between presenters and the host that draws them.
///
/// Presenters present, update and dismiss their screens here; the router stamps each screen
/// with its breadcrumb (the titles under it) and shows popups. Parents start their children
/// here too. One router serves a whole run, so a child flow's screens stack over its parent's.
public actor AppRouter {
    private let host: any ScreenHost
    private let starter: any FlowStarter
    private var stack: [Screen] = []
    /// The tabs of the tab on show (see ``start(_:asTabAmong:)``): the depth of its own screens
    /// in the stack, and the other tab tapped there, to open next.
    private var tabbed: (tabs: [Tab], depth: Int, next: ElementID?)?

    /// - Parameter starter: how children are started; tests pass one that stands in for them.
    public init(host: any ScreenHost, starter: any FlowStarter = PerformingStarter()) {
        self.host = host
        self.starter = starter
    }

    /// Starts a child flow, which draws through this router, and waits for its result.
    public nonisolated func start<Child: Flow>(_ child: Child) async -> Child.FlowResult {
        await starter.start(child)
    }

    /// Starts a child flow as one of a home's tabs (`tabs`, the child's own marked selected):
    /// every screen the child presents itself (not its children's, nor its popups) shows the
    /// tabs, so the user moves between them from anywhere in a tab. Tapping another tab there
    /// goes back, as Esc does, and names that tab to open next; the one on show does nothing.
    public nonisolated func start<Child: Flow>(_ child: Child, asTabAmong tabs: [Tab]) async -> (result: Child.FlowResult, nextTab: ElementID?) {
        let outer = await openTab(tabs)
        let result = await starter.start(child)
        return (result, await closeTab(restoring: outer))
    }

    private func openTab(_ tabs: [Tab]) -> (tabs: [Tab], depth: Int, next: ElementID?)? {
        let outer = tabbed
        tabbed = (tabs, stack.count, nil)
        return outer
    }

    private func closeTab(restoring outer: (tabs: [Tab], depth: Int, next: ElementID?)?) -> ElementID? {
        let next = tabbed?.next
        tabbed = outer
        return next
    }

    /// The titles of the screens on show, outermost first.
    public var breadcrumb: [String] { stack.map { $0.title } }

    /// The screen on top, if any.
    public var topScreen: Screen? { stack.last }

    /// Shows a new screen on top of the others.
    public func present(_ screen: Screen) async {
        var screen = screen
        stack.removeAll { $0.id == screen.id }
        screen.breadcrumb = stack.map { $0.title }
        if let tabbed, stack.count == tabbed.depth { screen.tabs = tabbed.tabs }
        stack.append(screen)
        await host.present(screen)
    }

    /// Replaces a screen on show with a new version of it; presents it if it is not on show.
    public func update(_ screen: Screen) async {
        guard let index = stack.firstIndex(where: { $0.id == screen.id }) else {
            await present(screen)
            return
        }
        var screen = screen
        screen.breadcrumb = stack[..<index].map { $0.title }
        if let tabbed, index == tabbed.depth { screen.tabs = tabbed.tabs }
        guard screen != stack[index] else { return }
        stack[index] = screen
        await host.update(screen)
    }

    /// Takes a screen away; the one under it, if any, is on top again.
    public func dismiss(_ screenID: ScreenID) async {
        guard let index = stack.firstIndex(where: { $0.id == screenID }) else { return }
        let wasOnTop = index == stack.count - 1
        stack.remove(at: index)
        await host.dismiss(screenID)
        if wasOnTop, let top = stack.last {
            await host.update(top)
        }
    }

    /// Waits for the user's next event on a screen on show. A screen that is not on show gets
    /// `cancel`, so a flow that lost its screen ends instead of waiting forever. On a tab's own
    /// screen, another tab tapped is `back`, that tab kept to open next.
    public func nextEvent(on screenID: ScreenID) async -> UserEvent {
        while true {
            guard let screen = stack.last(where: { $0.id == screenID }) else { return .cancel }
            let event = await host.nextEvent(on: screen)
            guard let tabs = tabbed?.tabs, stack.lastIndex(where: { $0.id == screenID }) == tabbed?.depth else { return event }
            if case .tap(let id) = event, let tab = tabs.first(where: { $0.id == id }) {
                if tab.isSelected { continue }
                tabbed?.next = id
                return .back
            }
            // Anything else: a tab tapped before, whose back the flow took otherwise (a question
            // it closed), is no longer where the user is going.
            tabbed?.next = nil
            return event
        }
    }

    /// Shows a message in a popup and waits until the user has read it.
    public func alert(id: ScreenID = "alert", title: String, message: String) async {
        let popup = Screen(
            id: id,
            title: title,
            text: [message],
            actions: [Action(id: "ok", label: "OK", role: .primary)]
        )
        await present(popup)
        _ = await nextEvent(on: id)
        await dismiss(id)
    }
}
