/// One of the eight mask patterns: a rule, on a module's row and column, for which data modules
/// are flipped, so that the symbol avoids large blocks and finder-like shapes.
struct MaskPattern: Hashable, Sendable {
    /// 0 to 7, the number written in the format information.
    let number: Int

    /// The pattern numbered `number`, or nil outside 0...7.
    init?(_ number: Int) {
        guard QRCode.masks.contains(number) else { return nil }
        self.number = number
    }

    private init(checked number: Int) {
        self.number = number
    }

    /// The eight patterns, 0 first.
    static let all: [MaskPattern] = QRCode.masks.map(MaskPattern.init(checked:))

    /// Whether the module at `row`, `column` (from the top left, both from 0) is flipped.
    func flips(row: Int, column: Int) -> Bool {
        switch number {
        case 0: (row + column) % 2 == 0
        case 1: row % 2 == 0
        case 2: column % 3 == 0
        case 3: (row + column) % 3 == 0
        case 4: (row / 2 + column / 3) % 2 == 0
        case 5: (row * column) % 2 + (row * column) % 3 == 0
        case 6: ((row * column) % 2 + (row * column) % 3) % 2 == 0
        default: ((row + column) % 2 + (row * column) % 3) % 2 == 0
        }
    }
}
