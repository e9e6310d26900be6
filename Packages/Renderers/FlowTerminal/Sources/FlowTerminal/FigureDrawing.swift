import FlowKit
import QRCode

/// Figures as terminal text, the same for both renderers.
enum FigureDrawing {
    enum Result: Equatable {
        case drawn([String])
        /// A badge: its text, and the SGR background of its colour.
        case badge(String, background: String)
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
        case .initials(let initials, let colour):
            return .badge(initials, background: backgrounds[colour] ?? "100")
        case .picture(let picture):
            // Drawn as a picture only by a renderer that knows the terminal can.
            return .badge(picture.initials, background: backgrounds[picture.colour] ?? "100")
        }
    }

    /// The avatar palette as 256-colour backgrounds, under white bold initials.
    private static let backgrounds: [String: String] = [
        "red": "48;5;160", "orange": "48;5;166", "yellow": "48;5;136", "green": "48;5;28",
        "teal": "48;5;30", "blue": "48;5;25", "purple": "48;5;91", "pink": "48;5;162",
    ]
}
