import FlowKit

/// Draws the friend code: a QR code to scan, the code to type. Its identifiers are the contract
/// scripts use.
struct QrPreviewView: View {
    static let screenID: ScreenID = "qr-preview"

    func screen(for state: QrPreviewViewState) -> Screen {
        Screen(
            id: Self.screenID,
            title: "Your friend code",
            text: ["A friend scans this code with their phone, or types \(state.code) to add you."],
            figures: [.qrCode(state.code)],
            actions: [.back]
        )
    }
}
