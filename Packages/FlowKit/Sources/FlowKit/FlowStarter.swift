/// How a parent's children are started: the seam a test replaces.
///
/// A parent starts a child with ``AppRouter/start(_:)``, which hands it to the run's starter.
/// The app's starter performs every child; a test's starter can stand in for a child with the
/// result it should produce, so a parent is tested without driving its children's screens.
public protocol FlowStarter: Sendable {
    /// Runs `child` (or stands in for it) and returns its result.
    func start<Child: Flow>(_ child: Child) async -> Child.FlowResult
}

/// The starter of the app: every child runs.
public struct PerformingStarter: FlowStarter {
    public init() {}

    public func start<Child: Flow>(_ child: Child) async -> Child.FlowResult {
        await child.perform()
    }
}
