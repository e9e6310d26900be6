import Accounts
import Testing

/// A 3 x 2 PNG written by Python's zlib (its CRCs are zlib's, not ours).
private let png3x2: [UInt8] = hex("89504e470d0a1a0a0000000d49484452000000030000000208020000001216f14d0000000b49444154789c6360c00400001400017dfe1eee0000000049454e44ae426082")

private func hex(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
        index = next
    }
    return bytes
}

/// A JPEG's segments up to its frame header: start of image, an APP0 (JFIF) of 16 bytes, a
/// quantisation table, then SOF`n` with the size.
private func jpeg(width: Int, height: Int, frame: UInt8 = 0xC0) -> [UInt8] {
    let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]
    let dqt: [UInt8] = [0xFF, 0xDB, 0x00, 0x43, 0x00] + Array(repeating: 1, count: 64)
    let sof: [UInt8] = [0xFF, frame, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
                        0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]
    return [0xFF, 0xD8] + app0 + dqt + sof + [0xFF, 0xDA, 0x00, 0x02, 0x12, 0x34, 0xFF, 0xD9]
}

@Suite("Avatar pictures")
struct AvatarImageTests {
    @Test("a PNG and a JPEG are recognised by their bytes and sized from their headers")
    func recognised() throws {
        let picture = try AvatarImage(bytes: png3x2)
        #expect(picture.format == .png && picture.width == 3 && picture.height == 2)
        let photo = try AvatarImage(bytes: jpeg(width: 640, height: 480))
        #expect(photo.format == .jpeg && photo.width == 640 && photo.height == 480)
        // A progressive JPEG (SOF2) is sized the same way.
        #expect(try AvatarImage(bytes: jpeg(width: 4096, height: 17, frame: 0xC2)).width == 4096)
    }

    @Test("anything else is refused, saying what was found", arguments: [
        ([], AvatarProblem.empty),
        (Array("GIF89a and more".utf8), .notAnImage(found: "it is a GIF")),
        (Array("%PDF-1.7".utf8), .notAnImage(found: "it is a PDF")),
        (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .notAnImage(found: "it is a WebP")),
        (Array("hello, world".utf8), .notAnImage(found: "it starts with the bytes 68 65 6C 6C 6F 2C 20 77")),
    ] as [([UInt8], AvatarProblem)])
    func refused(bytes: [UInt8], problem: AvatarProblem) {
        #expect(throws: problem) { try AvatarImage(bytes: bytes) }
    }

    @Test("a PNG whose header is cut short, damaged or of size zero is refused as damaged")
    func damagedPNG() {
        var flipped = png3x2
        flipped[17] ^= 0x01 // the width changes, the CRC no longer matches
        var zero = png3x2
        zero.replaceSubrange(16..<20, with: [0, 0, 0, 0])
        for bytes in [Array(png3x2.prefix(20)), flipped] {
            #expect {
                try AvatarImage(bytes: bytes)
            } throws: { error in
                guard case .damaged(.png, _) = error as? AvatarProblem else { return false }
                return (error as? AvatarProblem)?.message.hasPrefix("The PNG file is damaged") == true
            }
        }
        #expect(throws: AvatarProblem.self) { try AvatarImage(bytes: zero) }
    }

    @Test("a JPEG cut before its frame header, or with a broken segment, is refused as damaged")
    func damagedJPEG() {
        let whole = jpeg(width: 10, height: 10)
        for bytes in [Array(whole.prefix(30)), [0xFF, 0xD8, 0x00, 0x01, 0x02], [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01]] {
            #expect {
                try AvatarImage(bytes: bytes)
            } throws: { error in
                if case .damaged(.jpeg, _) = error as? AvatarProblem { true } else { false }
            }
        }
    }

    @Test("at most 1 MiB and 4096 x 4096 pixels: a 2 MiB JPEG and a 5000-pixel-wide PNG are refused with their figures")
    func limits() throws {
        let big = jpeg(width: 100, height: 100) + Array(repeating: 0, count: 2 << 20)
        #expect(throws: AvatarProblem.tooLarge(bytes: big.count)) { try AvatarImage(bytes: big) }
        #expect(AvatarProblem.tooLarge(bytes: big.count).message == "The file is 2.1 MiB; an avatar is at most 1 MiB.")
        #expect(AvatarProblem.tooLarge(bytes: (1 << 20) + 1).message == "The file is 1.1 MiB; an avatar is at most 1 MiB.")
        let exactly = jpeg(width: 100, height: 100) + Array(repeating: 0, count: (1 << 20) - jpeg(width: 100, height: 100).count)
        #expect(try AvatarImage(bytes: exactly).bytes.count == 1 << 20)
        #expect(throws: AvatarProblem.tooManyPixels(width: 5000, height: 10)) { try AvatarImage(bytes: jpeg(width: 5000, height: 10)) }
        #expect(AvatarProblem.tooManyPixels(width: 5000, height: 10).message == "The picture is 5000 x 10 pixels; an avatar is at most 4096 x 4096.")
    }

    @Test("no input crashes the header readers: every prefix of a PNG and a JPEG, and every one-byte change to their headers")
    func hostile() {
        for source in [png3x2, jpeg(width: 300, height: 200)] {
            for length in 0...source.count { _ = try? AvatarImage(bytes: Array(source.prefix(length))) }
            for index in 0..<min(40, source.count) {
                for value in [0x00, 0x01, 0x7F, 0xFF] as [UInt8] {
                    var changed = source
                    changed[index] = value
                    _ = try? AvatarImage(bytes: changed)
                }
            }
        }
    }
}
