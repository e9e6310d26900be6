/// A finished QR code symbol: a square of dark and light modules, with what it was made with.
///
/// The matrix holds the symbol only; readers need a light quiet zone around it (4 modules wide),
/// which drawings such as ``halfBlockLines(quietZone:)`` add.
public struct QRMatrix: Hashable, Sendable {
    /// 1 to 40; the symbol is 17 + 4 × version modules on a side.
    public let version: Int
    public let correction: QRCode.ErrorCorrection
    public let mode: QRCode.Mode
    /// The mask pattern applied to the data, 0 to 7.
    public let mask: Int
    /// Modules on a side.
    public let size: Int
    /// Row by row from the top left; true is dark.
    private let modules: [Bool]

    init(version: Int, correction: QRCode.ErrorCorrection, mode: QRCode.Mode, mask: Int, size: Int, modules: [Bool]) {
        self.version = version
        self.correction = correction
        self.mode = mode
        self.mask = mask
        self.size = size
        self.modules = modules
    }

    /// Whether the module at `row`, `column` (from the top left, both from 0) is dark. Outside
    /// the symbol is the quiet zone, light.
    public func isDark(row: Int, column: Int) -> Bool {
        guard (0..<size).contains(row), (0..<size).contains(column) else { return false }
        return modules[row * size + column]
    }

    /// The modules row by row from the top, each row from the left; true is dark.
    public var rows: [[Bool]] {
        (0..<size).map { row in Array(modules[(row * size)..<(row * size + size)]) }
    }
}
