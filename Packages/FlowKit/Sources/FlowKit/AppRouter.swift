/// Keeps the stack of screens on show and routes between presenters and the host that draws them.
///
/// Presenters present, update and dismiss their screens here; the router stamps each screen
/// with its breadcrumb (the titles under it) and shows popups. Parents start their children
/// here too. One router serves a whole run, so a child flow's screens stack over its parent's.
public actor AppRouter {
    private let host: any ScreenHost
    private let starter: any FlowStarter
    private var stack: [Screen] = []
    /// The tabs of the tab on show (see ``start(_:asTabAmong:saying:)``): the depth of its own
    /// screens in the stack, what they say when they say nothing else, and the other tab tapped
    /// there, to open next.
    private var tabbed: Tabbed?

    private struct Tabbed {
        let tabs: [Tab]
        let depth: Int
        let notice: String?
        var next: ElementID?
    }

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
    /// tabs, so the user moves between them from anywhere in a tab, and says `notice` (how up to
    /// date what it shows is, say) whenever it says nothing of its own. Tapping another tab
    /// there goes back, as Esc does, and names that tab to open next; the one on show does
    /// nothing.
    public nonisolated func start<Child: Flow>(
        _ child: Child, asTabAmong tabs: [Tab], saying notice: String? = nil
    ) async -> (result: Child.FlowResult, nextTab: ElementID?) {
        let outer = await openTab(tabs, saying: notice)
        let result = await starter.start(child)
        return (result, await closeTab(restoring: outer))
    }

    private func openTab(_ tabs: [Tab], saying notice: String?) -> Tabbed? {
        let outer = tabbed
        tabbed = Tabbed(tabs: tabs, depth: stack.count, notice: notice)
        return outer
    }

    /// A screen of the tab on show with the tabs, and the tab's notice when it says nothing.
    private func stampingTab(_ screen: inout Screen, at depth: Int) {
        guard let tabbed, depth == tabbed.depth else { return }
        screen.tabs = tabbed.tabs
        if screen.status == nil, let notice = tabbed.notice { screen.status = .notice(notice) }
    }

    private func closeTab(restoring outer: Tabbed?) -> ElementID? {
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
        stampingTab(&screen, at: stack.count)
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
        stampingTab(&screen, at: index)
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
