import FlowKit

/// Chooses a random step among what a screen offers, with answers good, bad and hostile.
enum StepChooser {
    static func step(on screen: Screen, samples: [String], using random: inout SeededRandom) -> Script.Verb {
        var candidates: [(weight: Int, make: (inout SeededRandom) -> Script.Verb)] = []
        for action in screen.actions {
            // Leaving is offered by back and cancel already: taps go forward more often.
            let weight = action.role == .cancel ? 2 : 6
            candidates.append((weight, { _ in .tap(action.id) }))
        }
        for tab in screen.tabs {
            candidates.append((2, { _ in .tap(tab.id) }))
        }
        for field in screen.fields {
            candidates.append((7, { random in answer(for: field, samples: samples, using: &random) }))
        }
        candidates.append((2, { _ in .back }))
        candidates.append((1, { _ in .cancel }))
        // A change made elsewhere can reach any screen at any moment.
        candidates.append((1, { _ in .refresh }))
        let total = candidates.reduce(0) { $0 + $1.weight }
        var pick = Int(random.next(upperBound: UInt64(total)))
        for candidate in candidates {
            if pick < candidate.weight { return candidate.make(&random) }
            pick -= candidate.weight
        }
        return .cancel
    }

    /// An answer for `field`: a fill or a choice that fits its kind.
    static func answer(for field: Field, samples: [String], using random: inout SeededRandom) -> Script.Verb {
        // Text that means something to the store more often than not, then anything.
        let typed = { (others: [String], random: inout SeededRandom) -> String in
            !samples.isEmpty && random.next(upperBound: UInt64(5)) < 3 ? pick(from: samples, using: &random) : pick(from: others, using: &random)
        }
        switch field.input {
        case .text:
            return .fill(field.id, typed(texts, &random))
        case .secret:
            return .fill(field.id, typed(secrets, &random))
        case .money:
            return .fill(field.id, pick(from: amounts, using: &random))
        case .day:
            return .fill(field.id, pick(from: days, using: &random))
        case .table(let rows, _, _):
            guard !rows.isEmpty else { return .back }
            let row = rows[Int(random.next(upperBound: UInt64(rows.count)))]
            return .fill(ElementID.cell(row.id, of: field.id), pick(from: cells, using: &random))
        case .confirm:
            return .choose(field.id, [random.next(upperBound: UInt64(2)) == 0 ? ElementID.yes.rawValue : ElementID.no.rawValue])
        case .choice(let options, _):
            guard !options.isEmpty else { return .back }
            return .choose(field.id, [options[Int(random.next(upperBound: UInt64(options.count)))].id.rawValue])
        case .multiChoice(let options, _):
            // None, one or a few: each option in with odds of one in three, at most four.
            var picked: [String] = []
            for option in options where picked.count < 4 && random.next(upperBound: UInt64(3)) == 0 {
                picked.append(option.id.rawValue)
            }
            return .choose(field.id, picked)
        }
    }

    private static func pick(from values: [String], using random: inout SeededRandom) -> String {
        values[Int(random.next(upperBound: UInt64(values.count)))]
    }

    /// Text people type, right and wrong, and text no one should: empty, very long, control and
    /// invisible characters, other scripts, markup.
    static let hostile = [
        "", " ", String(repeating: "x", count: 5_000), String(repeating: "é", count: 101),
        "\u{1B}[2J\u{1B}[H", "a\u{0}b", "bell\u{7}", "tab\there", "two\nlines", "\r",
        "\u{200B}", "\u{202E}gnp.exe", "\u{FEFF}name", "e\u{301}", "🙂👩‍👩‍👧", "Ελένη", "山田太郎", "مرحبا",
        "'; DROP TABLE expense; --", "%s%n%@", "\\", "\"quoted\"", "-1", "9223372036854775808",
    ]
    static let texts = hostile + [
        "Ada Lovelace", "Bob Stone", "Sam Park", "Dinner", "Lunch at the lake", "ada@example.com", "bob@example.com",
        "cy@example.com", "dee@example.com", "sam@example.com", "new@example.com", "not-an-email", "correct horse", "A note.",
    ]
    static let secrets = ["correct horse", "wrong horse", "short", "", String(repeating: "p", count: 300), "correct horse battery", "\u{0}"]
    static let amounts = [
        "12.50", "30", "0.01", "1", "0", "-5", "12.345", "1e3", "abc", "", "12,50", "99999999999999999999",
        "92233720368547758.07", "10000000000", "1.", ".5",
    ]
    static let days = ["today", "yesterday", "fri", "2026-11-20", "2027-01-15", "2027-02-30", "0001-01-01", "9999-12-31", "tomorrow", ""]
    static let cells = ["1", "2", "0", "33.33", "50", "100", "101", "-1", "2.5", "", "10.00", "1000000000000", "x"]
}
