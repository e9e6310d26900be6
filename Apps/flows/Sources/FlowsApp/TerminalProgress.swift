#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import FlowTerminal
import Foundation
import Interchange
import Primitives
import Synchronization

/// Whether a person is at a terminal: standard input and standard error are both one, and it
/// is not a dumb one. Pipes, scripts and CI get no questions and no progress bar.
private func atTerminal(input: Bool) -> Bool {
    (!input || isatty(STDIN_FILENO) == 1) && isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
}

/// A progress bar on standard error, redrawn in place: `Importing  [######······]  12,000 of
/// 50,000`. Made only on a terminal.
final class ProgressBar: Sendable {
    private let label: String
    /// The last whole percent drawn, so that a redraw happens only when the bar moves.
    private let drawn = Mutex(-1)

    init?(label: String) {
        guard atTerminal(input: false) else { return nil }
        self.label = label
    }

    func show(_ done: Int, of total: Int) {
        guard total > 0 else { return }
        let percent = min(done, total) * 100 / total
        guard drawn.withLock({ last in defer { last = percent }; return last != percent }) else { return }
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "·", count: width - filled)
        writeAll(Array("\r\(label)  [\(bar)]  \(Self.grouped(done)) of \(Self.grouped(total))\u{1B}[K".utf8), to: STDERR_FILENO)
    }

    /// Takes the bar off the line, if one was drawn.
    func finish() {
        guard drawn.withLock({ $0 >= 0 }) else { return }
        writeAll(Array("\r\u{1B}[K".utf8), to: STDERR_FILENO)
    }

    /// `50000` as `50,000`.
    static func grouped(_ number: Int) -> String {
        var digits = Array(String(number.magnitude))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return (number < 0 ? "-" : "") + String(digits)
    }
}

/// Questions asked on a terminal, answered on a line of standard input. Made only when a
/// person is there to answer.
struct TerminalQuestions {
    init?() {
        guard atTerminal(input: true) else { return nil }
    }

    func tell(_ text: String) {
        writeAll(Array((text + "\n").utf8), to: STDERR_FILENO)
    }

    /// A line typed after `prompt`, without its surrounding spaces; the end of input ends the
    /// command with nothing written.
    private func ask(_ prompt: String) throws -> String {
        writeAll(Array(prompt.utf8), to: STDERR_FILENO)
        guard let line = readLine() else { throw Reader.failed("No answer: nothing was written.") }
        return line.trimmingWhitespace()
    }

    /// Who a person of the file is: a friend's or contact's email, or (Enter) a new contact.
    func whoIs(_ name: String) throws -> PersonMatch {
        tell("\(name) is none of your friends or contacts.")
        let answer = try ask("  Their email, if they are a friend or contact of yours; or Enter to make \(name) a contact: ")
        return answer.isEmpty ? .contact : .email(answer)
    }

    /// Which of the file's people is the user, by number or name.
    func whichIsYou(among people: [String]) throws -> String {
        tell("Which one is you?")
        for (index, person) in people.enumerated() { tell("  \(index + 1). \(person)") }
        while true {
            let answer = try ask("Your number or name: ")
            if let number = Int(answer), people.indices.contains(number - 1) { return people[number - 1] }
            if let person = people.first(where: { $0.lowercased() == answer.lowercased() }) { return person }
            tell("\(answer.isEmpty ? "Nothing" : answer) is none of them.")
        }
    }
}
