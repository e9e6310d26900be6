extension QRCode {
    /// Why a text could not be encoded. Encoding never crashes on its input: every limit is one
    /// of these.
    public enum EncodingError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The text does not fit the largest version allowed at this error-correction level.
        case tooLong(bytes: Int, mode: Mode, correction: ErrorCorrection, maximumVersion: Int)
        /// Alphanumeric mode was forced, and the text has a character outside its set.
        case notAlphanumeric(Character)
        /// The versions asked for are not a range within 1...40.
        case invalidVersionRange(minimum: Int, maximum: Int)
        /// The mask forced is not one of 0...7.
        case invalidMask(Int)

        public var description: String {
            switch self {
            case .tooLong(let bytes, let mode, let correction, let maximumVersion):
                "a text of \(bytes) bytes is too long for a QR code of version \(maximumVersion) "
                    + "in \(mode) mode at error correction \(correction)"
            case .notAlphanumeric(let character):
                "\"\(character)\" is not one of the 45 characters of alphanumeric mode"
            case .invalidVersionRange(let minimum, let maximum):
                "versions \(minimum) to \(maximum) are not a range within 1...40"
            case .invalidMask(let mask):
                "mask \(mask) is not one of the eight masks 0...7"
            }
        }
    }
}
