/// A picture a user chose as their avatar: a PNG or a JPEG, recognised by its bytes and sized
/// from its header, kept whole (in the store, not as a path to the user's file).
public struct AvatarImage: Equatable, Sendable, Codable {
    /// What kind of file it is, from its first bytes (never from a file name).
    public enum Format: String, Sendable, Codable {
        case png
        case jpeg
    }

    /// The most bytes an avatar may take: 1 MiB.
    public static let maximumBytes = 1 << 20
    /// The widest and tallest an avatar may be, in pixels.
    public static let maximumSide = 4096

    public let format: Format
    public let width: Int
    public let height: Int
    public let bytes: [UInt8]

    /// Recognises `bytes` as a PNG or a JPEG and reads its size from its header; anything else
    /// is refused saying what was found.
    public init(bytes: [UInt8]) throws(AvatarProblem) {
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count <= Self.maximumBytes else { throw .tooLarge(bytes: bytes.count) }
        let size: (width: Int, height: Int)
        if bytes.starts(with: ImageHeader.pngSignature) {
            format = .png
            size = try ImageHeader.pngSize(bytes)
        } else if bytes.starts(with: [0xFF, 0xD8]) {
            format = .jpeg
            size = try ImageHeader.jpegSize(bytes)
        } else {
            throw .notAnImage(found: ImageHeader.describe(bytes))
        }
        guard size.width <= Self.maximumSide, size.height <= Self.maximumSide else {
            throw .tooManyPixels(width: size.width, height: size.height)
        }
        width = size.width
        height = size.height
        self.bytes = bytes
    }
}

/// Why some bytes are not an avatar, with what was found.
public enum AvatarProblem: Error, Equatable, Sendable {
    case empty
    case tooLarge(bytes: Int)
    case notAnImage(found: String)
    /// A PNG or JPEG whose header cannot be read: cut short or damaged.
    case damaged(AvatarImage.Format, String)
    case tooManyPixels(width: Int, height: Int)

    public var message: String {
        switch self {
        case .empty: "The file is empty (0 bytes); choose a PNG or JPEG picture."
        case .tooLarge(let bytes):
            "The file is \(Self.mebibytes(bytes)) MiB; an avatar is at most 1 MiB."
        case .notAnImage(let found): "That is not a PNG or JPEG picture: \(found)."
        case .damaged(let format, let detail): "The \(format == .png ? "PNG" : "JPEG") file is damaged: \(detail)."
        case .tooManyPixels(let width, let height):
            "The picture is \(width) x \(height) pixels; an avatar is at most \(AvatarImage.maximumSide) x \(AvatarImage.maximumSide)."
        }
    }

    /// Bytes as MiB with one decimal, rounded up so that a file just over the limit never
    /// reads as "1.0".
    private static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 20) - 1) / (1 << 20)
        return "\(tenths / 10).\(tenths % 10)"
    }
}

/// Reading the headers of PNG and JPEG files, without decoding a pixel.
enum ImageHeader {
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The size from a PNG's first chunk, which must be an IHDR of 13 bytes with a right CRC.
    static func pngSize(_ bytes: [UInt8]) throws(AvatarProblem) -> (width: Int, height: Int) {
        // Signature (8), length (4), "IHDR" (4), data (13), CRC (4).
        guard bytes.count >= 33 else { throw .damaged(.png, "it ends inside its header") }
        guard integer(bytes, at: 8, count: 4) == 13, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            throw .damaged(.png, "its first chunk is not a header (IHDR)")
        }
        guard CRC32.checksum(bytes[12..<29]) == UInt32(integer(bytes, at: 29, count: 4)) else {
            throw .damaged(.png, "its header's checksum does not match")
        }
        let width = integer(bytes, at: 16, count: 4)
        let height = integer(bytes, at: 20, count: 4)
        guard width > 0, height > 0 else { throw .damaged(.png, "its header says it is \(width) x \(height) pixels") }
        return (width, height)
    }

    /// The size from a JPEG's start-of-frame segment, found by walking the segments after the
    /// start-of-image marker.
    static func jpegSize(_ bytes: [UInt8]) throws(AvatarProblem) -> (width: Int, height: Int) {
        var at = 2
        while at + 1 < bytes.count {
            guard bytes[at] == 0xFF else { throw .damaged(.jpeg, "a segment does not start with a marker") }
            let marker = bytes[at + 1]
            // Fill bytes, and markers that stand alone (no length).
            if marker == 0xFF { at += 1; continue }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { at += 2; continue }
            guard marker != 0xD9, marker != 0xDA else { break }
            guard at + 3 < bytes.count else { break }
            let length = integer(bytes, at: at + 2, count: 2)
            guard length >= 2 else { throw .damaged(.jpeg, "a segment has a length of \(length)") }
            // Start of frame: every SOFn but DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard at + 8 < bytes.count, length >= 7 else { break }
                let height = integer(bytes, at: at + 5, count: 2)
                let width = integer(bytes, at: at + 7, count: 2)
                guard width > 0, height > 0 else { throw .damaged(.jpeg, "its frame says it is \(width) x \(height) pixels") }
                return (width, height)
            }
            at += 2 + length
        }
        throw .damaged(.jpeg, "no frame header (SOF) before the image data or the end of the file")
    }

    /// What a file that is not a picture we take looks like, to say so.
    static func describe(_ bytes: [UInt8]) -> String {
        let starts = { (text: String) in bytes.starts(with: Array(text.utf8)) }
        if starts("GIF8") { return "it is a GIF" }
        if starts("RIFF"), bytes.count >= 12, Array(bytes[8..<12]) == Array("WEBP".utf8) { return "it is a WebP" }
        if starts("%PDF") { return "it is a PDF" }
        if starts("BM") { return "it looks like a BMP" }
        if bytes.count >= 12, Array(bytes[4..<12]) == Array("ftypheic".utf8) { return "it is a HEIC" }
        if starts("<svg") || starts("<?xml") { return "it is SVG or XML text" }
        let head = bytes.prefix(8).map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined(separator: " ")
        return "it starts with the bytes \(head)"
    }

    /// A big-endian unsigned integer of `count` bytes (at most 4, so it always fits an Int).
    static func integer(_ bytes: [UInt8], at offset: Int, count: Int) -> Int {
        var value = 0
        for index in offset..<(offset + count) { value = value << 8 | Int(bytes[index]) }
        return value
    }
}

/// The CRC-32 PNG uses (ISO 3309, polynomial 0xEDB88320), to check a header is whole.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
