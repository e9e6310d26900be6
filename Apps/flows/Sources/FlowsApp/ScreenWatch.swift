import FlowKit

/// Passes screens to the renderer and remembers what the last one said was wrong, so a run
/// that stops early can say why in its result.
actor ScreenWatch: ScreenHost {
    private let inner: any ScreenHost
    private var last: Screen?

    init(wrapping inner: any ScreenHost) {
        self.inner = inner
    }

    func present(_ screen: Screen) async {
        last = screen
        await inner.present(screen)
    }

    func update(_ screen: Screen) async {
        if screen.id == last?.id { last = screen }
        await inner.update(screen)
    }

    func dismiss(_ screenID: ScreenID) async {
        await inner.dismiss(screenID)
    }

    func nextEvent(on screen: Screen) async -> UserEvent {
        last = screen
        return await inner.nextEvent(on: screen)
    }

    /// The error the last screen showed (its own, else its fields'), if any.
    var problem: String? {
        guard let last else { return nil }
        if case .error(let message) = last.status { return message }
        return last.fieldErrors.isEmpty ? nil : last.fieldErrors.joined(separator: "; ")
    }
}
