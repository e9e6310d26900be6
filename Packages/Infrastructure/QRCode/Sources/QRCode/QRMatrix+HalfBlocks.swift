extension QRMatrix {
    /// The widest quiet zone drawn; a larger one asked for is drawn this wide.
    public static let maximumQuietZone = 100

    /// The symbol drawn for a terminal, two module rows to a line of text: each character is
    /// one column of two modules, "█" both dark, "▀" only the upper one, "▄" only the lower one,
    /// a space neither. The quiet zone, `quietZone` light modules wide on every side (4 by
    /// default, as the standard asks; clamped to 0...``maximumQuietZone``), is drawn too, and a
    /// last line with an odd row below is padded with a light row.
    ///
    /// The glyphs draw the DARK modules, so the text must be shown as dark glyphs on a light
    /// background (black on white). On a terminal's usual light-on-dark colours the code comes
    /// out inverted, which many phones cannot read: force the colours when drawing it.
    public func halfBlockLines(quietZone: Int = 4) -> [String] {
        let margin = min(max(quietZone, 0), Self.maximumQuietZone)
        let width = size + 2 * margin
        return stride(from: 0, to: width, by: 2).map { top in
            var line = ""
            line.reserveCapacity(width * 3)
            for column in 0..<width {
                let upper = isDark(row: top - margin, column: column - margin)
                let lower = isDark(row: top + 1 - margin, column: column - margin)
                switch (upper, lower) {
                case (true, true): line.append("█")
                case (true, false): line.append("▀")
                case (false, true): line.append("▄")
                case (false, false): line.append(" ")
                }
            }
            return line
        }
    }
}
