import FlowKit

/// What the friend-code screen shows.
struct QrPreviewViewState: Equatable, Sendable {
    /// The code as people read it: `K7QX-M3RD-9`.
    var code: String
}

/// The friend-code screen's state: the code, which the QR code holds too.
struct QrPreviewViewModel: ViewModel {
    private(set) var state: QrPreviewViewState

    init(code: String) {
        state = QrPreviewViewState(code: code)
    }
}
