/// Where a screen's work stands: idle, loading (a busy indicator) or failed (an error on the
/// screen). What the screen has loaded lives beside it in the ViewState.
public enum Phase: Equatable, Sendable {
    case idle
    case loading
    case failed(String)

    /// The screen's status in this phase; `busy` says what is under way while loading.
    public func status(busy: String) -> ScreenStatus? {
        switch self {
        case .idle: nil
        case .loading: .busy(busy)
        case .failed(let message): .error(message)
        }
    }
}
