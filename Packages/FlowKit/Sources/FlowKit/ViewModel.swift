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

/// Why a ViewModel does not take an answer, in words for the user: what a field's error says.
public struct Refusal: Error, Equatable, Sendable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
