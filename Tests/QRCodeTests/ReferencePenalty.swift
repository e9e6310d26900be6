/// The four mask penalty rules scored again, apart from the encoder and written another way
/// (finder-like patterns are matched as module sequences, not counted from runs), in two
/// readings that differ only in the dark-share rule N4:
/// - the standard's, which the encoder follows: k whole 5% steps between the exact dark share
///   and 50% (45.4% dark is k = 0);
/// - libqrencode's (mask.c, `Mask_mask`): the share is first rounded to a whole percent, then
///   k = |percent − 50| / 5 in integers, so 45.4% rounds to 45% and scores k = 1.
/// N1 to N3 are the same in both: runs of 5 + i score 3 + i, each one-colour 2×2 square 3, and
/// each 1:1:3:1:1 pattern (unit n) with 4n light modules before or after it 40, the quiet zone
/// counting as light.
enum ReferencePenalty {
    enum DarkShare {
        case exact
        case roundedToPercent
    }

    static func score(_ rows: [[Bool]], darkShare: DarkShare) -> Int {
        let size = rows.count
        let columns = (0..<size).map { column in rows.map { $0[column] } }
        var points = 0
        for line in rows + columns {
            points += runPoints(line) + finderPatternPoints(line)
        }
        for row in 1..<size {
            for column in 1..<size {
                let colour = rows[row][column]
                if rows[row - 1][column] == colour, rows[row][column - 1] == colour, rows[row - 1][column - 1] == colour {
                    points += 3
                }
            }
        }
        let dark = rows.joined().filter { $0 }.count
        let total = size * size
        switch darkShare {
        case .exact:
            // |dark / total − 1/2| ≥ k / 20  ⇔  |20 dark − 10 total| ≥ k total
            points += 10 * (abs(20 * dark - 10 * total) / total)
        case .roundedToPercent:
            let percent = (200 * dark + total) / total / 2
            points += 10 * (abs(percent - 50) / 5)
        }
        return points
    }

    /// The first mask with the lowest score among the symbols under masks 0...7.
    static func choice(_ candidates: [[[Bool]]], darkShare: DarkShare) -> Int {
        let scores = candidates.map { score($0, darkShare: darkShare) }
        return scores.indices.min { scores[$0] < scores[$1] || (scores[$0] == scores[$1] && $0 < $1) } ?? 0
    }

    private static func runPoints(_ line: [Bool]) -> Int {
        var points = 0
        var start = 0
        while start < line.count {
            var end = start
            while end < line.count, line[end] == line[start] { end += 1 }
            if end - start >= 5 { points += 3 + (end - start - 5) }
            start = end
        }
        return points
    }

    private static func finderPatternPoints(_ line: [Bool]) -> Int {
        // Light beyond both ends: the quiet zone.
        func isLight(_ index: Int) -> Bool { index < 0 || index >= line.count || !line[index] }
        var points = 0
        for start in line.indices where line[start] && isLight(start - 1) {
            var unit = 0
            while start + unit < line.count, line[start + unit] { unit += 1 }
            let pattern = [Bool](repeating: true, count: unit) + [Bool](repeating: false, count: unit)
                + [Bool](repeating: true, count: 3 * unit) + [Bool](repeating: false, count: unit)
                + [Bool](repeating: true, count: unit)
            let end = start + pattern.count
            guard end <= line.count, Array(line[start..<end]) == pattern, isLight(end) else { continue }
            let lightBefore = (start - 4 * unit..<start).allSatisfy(isLight)
            let lightAfter = (end..<end + 4 * unit).allSatisfy(isLight)
            if lightBefore || lightAfter { points += 40 }
        }
        return points
    }
}
