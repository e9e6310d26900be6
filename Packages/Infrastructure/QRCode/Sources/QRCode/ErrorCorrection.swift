extension QRCode {
    /// How much of a symbol may be damaged or hidden and still be read, traded against how much
    /// text the symbol holds: the four levels of ISO/IEC 18004.
    public enum ErrorCorrection: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
        /// L: about 7% of the codewords can be restored.
        case low
        /// M: about 15%.
        case medium
        /// Q: about 25%.
        case quartile
        /// H: about 30%.
        case high

        /// The level's letter in the standard: L, M, Q or H.
        public var description: String {
            switch self {
            case .low: "L"
            case .medium: "M"
            case .quartile: "Q"
            case .high: "H"
            }
        }

        /// The two bits that name the level in the format information (they are not in the
        /// order of the levels).
        var formatBits: Int {
            switch self {
            case .low: 0b01
            case .medium: 0b00
            case .quartile: 0b11
            case .high: 0b10
            }
        }
    }
}
