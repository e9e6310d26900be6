/// A line diff in the unified style: `-` expected, `+` actual, with the golden's line numbers.
public enum TextDiff {
    /// The differing lines with three lines of context, or nil when the texts are equal.
    public static func unified(expected: String, actual: String, expectedName: String = "expected", actualName: String = "actual") -> String? {
        guard expected != actual else { return nil }
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let edits = script(old, new)
        var output = ["--- \(expectedName)", "+++ \(actualName)"]
        let context = 3
        var index = 0
        while index < edits.count {
            guard let start = edits[index...].firstIndex(where: { $0.kind != .same }) else { break }
            var end = start
            // Extend the hunk while changes are within twice the context of each other.
            while let next = edits[(end + 1)...].firstIndex(where: { $0.kind != .same }), next - end <= context * 2 {
                end = next
            }
            let from = max(0, start - context)
            let to = min(edits.count - 1, end + context)
            let firstOld = edits[from...to].first(where: { $0.oldLine != nil })?.oldLine ?? 0
            output.append("@@ line \(firstOld + 1) of \(expectedName) @@")
            for edit in edits[from...to] {
                switch edit.kind {
                case .same: output.append("  \(edit.text)")
                case .removed: output.append("- \(edit.text)")
                case .added: output.append("+ \(edit.text)")
                }
            }
            index = to + 1
        }
        return output.joined(separator: "\n")
    }

    struct Edit {
        enum Kind { case same, removed, added }
        var kind: Kind
        var text: String
        var oldLine: Int?
    }

    /// The shortest edit script by longest common subsequence (transcripts are short).
    static func script(_ old: [String], _ new: [String]) -> [Edit] {
        let n = old.count
        let m = new.count
        var lengths = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i][j] = old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var edits: [Edit] = []
        var i = 0
        var j = 0
        while i < n || j < m {
            if i < n, j < m, old[i] == new[j] {
                edits.append(Edit(kind: .same, text: old[i], oldLine: i))
                i += 1
                j += 1
            } else if i < n, j == m || lengths[i + 1][j] >= lengths[i][j + 1] {
                edits.append(Edit(kind: .removed, text: old[i], oldLine: i))
                i += 1
            } else {
                edits.append(Edit(kind: .added, text: new[j], oldLine: nil))
                j += 1
            }
        }
        return edits
    }
}
