/// Reed-Solomon error correction over GF(256) as QR codes use it: the field built on the
/// polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D), and a generator polynomial whose roots are
/// α⁰ … α^(n−1) for n error-correction codewords.
enum ReedSolomon {
    /// α^i for i in 0..<255, and log[α^i] = i (log[0] is unused).
    private static let (exponents, logarithms): ([UInt8], [Int]) = {
        var exponents = [UInt8](repeating: 0, count: 255)
        var logarithms = [Int](repeating: 0, count: 256)
        var value = 1
        for power in 0..<255 {
            exponents[power] = UInt8(value)
            logarithms[value] = power
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        return (exponents, logarithms)
    }()

    static func multiply(_ left: UInt8, _ right: UInt8) -> UInt8 {
        guard left != 0, right != 0 else { return 0 }
        return exponents[(logarithms[Int(left)] + logarithms[Int(right)]) % 255]
    }

    /// The coefficients of the generator polynomial of `degree`, highest power first, without
    /// the leading 1.
    static func generator(degree: Int) -> [UInt8] {
        // Start from 1 and multiply by (x − αⁱ) for each root; in GF(256) minus is plus.
        var coefficients: [UInt8] = [1]
        for power in 0..<degree {
            let root = exponents[power % 255]
            var next = [UInt8](repeating: 0, count: coefficients.count + 1)
            for (index, coefficient) in coefficients.enumerated() {
                next[index] ^= coefficient
                next[index + 1] ^= multiply(coefficient, root)
            }
            coefficients = next
        }
        return Array(coefficients.dropFirst())
    }

    /// The error-correction codewords of a block: the remainder of the block's data, as a
    /// polynomial times x^n, divided by the generator of degree n.
    static func errorCorrection(for data: [UInt8], generator: [UInt8]) -> [UInt8] {
        let degree = generator.count
        guard degree > 0 else { return [] }
        // Multiplying by a generator coefficient is adding logarithms: take them once.
        let generatorLogarithms = generator.map { $0 == 0 ? -1 : logarithms[Int($0)] }
        var remainder = [UInt8](repeating: 0, count: degree)
        for byte in data {
            let factor = byte ^ remainder[0]
            for index in 0..<(degree - 1) { remainder[index] = remainder[index + 1] }
            remainder[degree - 1] = 0
            guard factor != 0 else { continue }
            let factorLogarithm = logarithms[Int(factor)]
            for index in 0..<degree where generatorLogarithms[index] >= 0 {
                remainder[index] ^= exponents[(generatorLogarithms[index] + factorLogarithm) % 255]
            }
        }
        return remainder
    }
}
