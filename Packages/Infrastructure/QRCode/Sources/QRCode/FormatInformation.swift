/// The two small BCH codes that protect what a reader must know before the data: the format
/// information (error-correction level and mask) and, from version 7, the version number.
enum FormatInformation {
    /// The 15 format bits: the level's two bits and the mask's three, followed by the
    /// remainder of their division by the generator x¹⁰ + x⁸ + x⁵ + x⁴ + x² + x + 1, all XORed
    /// with 101010000010010 so that the bits are never all zero.
    static func bits(correction: QRCode.ErrorCorrection, mask: Int) -> Int {
        let data = correction.formatBits << 3 | (mask & 0b111)
        return (data << 10 | remainder(of: data << 10, generator: 0x537, degree: 10)) ^ 0x5412
    }

    /// The 18 version bits: the version number in six bits, followed by the remainder of its
    /// division by the generator x¹² + x¹¹ + x¹⁰ + x⁹ + x⁸ + x⁵ + x² + 1.
    static func versionBits(_ version: Int) -> Int {
        let data = version & 0b111111
        return data << 12 | remainder(of: data << 12, generator: 0x1F25, degree: 12)
    }

    /// The remainder of a polynomial over GF(2), given as bits, divided by `generator` of
    /// `degree`.
    private static func remainder(of value: Int, generator: Int, degree: Int) -> Int {
        var value = value
        var shift = Int.bitWidth - 1 - value.leadingZeroBitCount
        while shift >= degree {
            if value & (1 << shift) != 0 { value ^= generator << (shift - degree) }
            shift -= 1
        }
        return value
    }
}
