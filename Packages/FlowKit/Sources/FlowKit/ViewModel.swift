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

/// A ViewModel whose screen sends what the user entered to a service: it shows the service at
/// work, and takes the service's refusal. ``ViewActions/submit(_:isolation:_:)`` drives it.
public protocol SubmittingViewModel: ViewModel {
    /// What the service can answer instead of a value.
    associatedtype Failure: Error
    /// The screen while the service works: its busy indicator.
    mutating func busy()
    /// The service refused or failed: the screen says why, on a field or as the screen's error.
    mutating func failed(_ error: Failure)
}

extension SubmittingViewModel {
    /// What the screen shows after each of `failures`, starting from this model as it is: the
    /// example states of a ViewModel's refusals, for its flow's inventory.
    public func refusing(_ failures: [Failure]) -> [ViewState] {
        failures.map { failure in
            var model = self
            model.failed(failure)
            return model.state
        }
    }
}

/// A ViewModel whose screen acts on what it lists (answers a request, ends a session) and then
/// reads the list again: besides showing the act at work and its refusal, it says what the act
/// did. ``ViewActions/act(_:isolation:reloading:reloadAfter:_:)`` drives it.
public protocol ActingViewModel: SubmittingViewModel {
    /// The act was done: the screen says what it did.
    mutating func noticed(_ notice: String)
}

/// An ``ActingViewModel`` whose state keeps where the screen's work stands and what it last
/// said it did: ``busy()`` and ``noticed(_:)`` come with it, through the two key paths it names
/// (made in the ViewModel, they write its state however private its setter).
///
/// ```swift
/// static var phase: WritableKeyPath<Self, Phase> { \.state.phase }
/// static var notice: WritableKeyPath<Self, String?> { \.state.notice }
/// ```
public protocol NoticingViewModel: ActingViewModel {
    /// Where the screen's work stands, in the state.
    static var phase: WritableKeyPath<Self, Phase> { get }
    /// What the screen says the last act did, in the state; nil once the user does anything else.
    static var notice: WritableKeyPath<Self, String?> { get }
}

extension NoticingViewModel {
    /// The screen while the service works, with what it said before gone.
    public mutating func busy() {
        self[keyPath: Self.notice] = nil
        self[keyPath: Self.phase] = .loading
    }

    public mutating func noticed(_ notice: String) {
        self[keyPath: Self.notice] = notice
        self[keyPath: Self.phase] = .idle
    }
}

/// Why a ViewModel does not take an answer, in words for the user: what a field's error says.
public struct Refusal: Error, Equatable, Sendable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
