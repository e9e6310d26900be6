import QRCode
import Testing

/// The encoder's symbols read back by an independent decoder, zbarimg: the matrix drawn as an
/// image, and the terminal drawing parsed back from its glyphs into pixels, so that what a
/// phone is shown is what is proven readable.
@Suite("QR codes read back by zbarimg")
struct DecodingTests {
    @Test("200 payloads read back from the matrix and from its half-block drawing",
          arguments: QRCode.ErrorCorrection.allCases)
    func readBack(correction: QRCode.ErrorCorrection) async throws {
        let payloads = Payloads.decoding
        var matrixImages: [ModuleImage] = []
        var drawingImages: [ModuleImage] = []
        for payload in payloads {
            let matrix = try QRCode.encode(payload.text, correction: correction)
            #expect(matrix.mode == payload.mode, "\(payload)")
            matrixImages.append(ModuleImage(matrix))
            let drawing = try #require(
                ModuleImage(halfBlockLines: matrix.halfBlockLines()), "a glyph other than █ ▀ ▄ and space, \(payload)"
            )
            // The drawing has the quiet zone, 4 light modules on every side, and a light row
            // below the last odd one.
            #expect(drawing.rows == ModuleImage(matrix).rows + [Array(repeating: false, count: matrix.size + 8)])
            drawingImages.append(drawing)
        }

        let folder = try ScratchFolder()
        defer { folder.remove() }
        let texts = payloads.map(\.text)
        let decoded = try await Zbarimg.decode(matrixImages + drawingImages, expecting: texts + texts, in: folder)
        try #require(decoded.count == 2 * payloads.count)
        for (index, payload) in payloads.enumerated() {
            #expect(decoded[index] == payload.text, "\(payload) at level \(correction), from the matrix")
            #expect(decoded[payloads.count + index] == payload.text, "\(payload) at level \(correction), from the half-block drawing")
        }
    }
}
