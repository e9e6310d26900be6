/// A broken rule: the offending edge and where it was found.
public struct Violation: Equatable, Sendable, CustomStringConvertible {
    public var from: String
    public var to: String
    /// `file:line` of the import, or the package's manifest.
    public var evidence: String
    public var rule: String

    public init(from: String, to: String, evidence: String, rule: String) {
        self.from = from
        self.to = to
        self.evidence = evidence
        self.rule = rule
    }

    public var description: String { "\(from) -> \(to): \(rule) (\(evidence))" }
}
