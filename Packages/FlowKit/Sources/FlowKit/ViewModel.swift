/// The role that turns what a flow learns into the ViewState of its screen.
///
/// A ViewModel is a value owned by its flow: the flow mutates it as user actions arrive and
/// services answer, and hands its `state` to the ViewActions to show. Keep ViewStates small and
/// per screen.
public protocol ViewModel: Sendable {
    associatedtype ViewState: Sendable & Equatable

    /// What the screen should show now.
    var state: ViewState { get }
}
