import FlowKit
import QRCode

/// Figures as terminal text, the same for both renderers.
enum FigureDrawing {
    enum Result: Equatable {
        case drawn([String])
        /// What stops the figure from being drawn, in a sentence.
        case failed(String)
    }

    /// A QR code with half blocks (two module rows a line) and a quiet zone of four modules, at
    /// level M: a friend code fits version 1, 29 columns wide.
    static func lines(of figure: Figure) -> Result {
        switch figure {
        case .qrCode(let text):
            do throws(QRCode.EncodingError) {
                return .drawn(try QRCode.encode(text, correction: .medium).halfBlockLines(quietZone: 4))
            } catch {
                return .failed("This text is too long for a QR code.")
            }
        }
    }
}
