/// A stable identifier: of a screen (``ScreenID``) or of one of its elements (``ElementID``).
///
/// Identifiers are what scripts and tests address (`fill email ...`, `expect screen sign-in`);
/// they are part of a View's contract and must not change when labels or layout do. The two
/// kinds are distinct types, so a screen's identifier cannot stand where an element's is meant
/// (or the other way round) even where their texts agree, as the sign-in screen's and its
/// sign-in action's do.
public struct Identifier<Kind: IdentifierKind>: RawRepresentable, Hashable, Sendable, Codable, Comparable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What an ``Identifier`` names; its two kinds keep screens and elements apart.
public protocol IdentifierKind: Sendable {}

/// The kind of a screen's identifier.
public enum ScreenKind: IdentifierKind {}

/// The kind of an element's identifier: a field, an option, an action or a tab.
public enum ElementKind: IdentifierKind {}

/// The identifier of a screen (`sign-in`), used by `expect screen`, the router and renderers.
public typealias ScreenID = Identifier<ScreenKind>

/// The identifier of an interactive element of a screen (`email`, `sign-in`, `quit`).
public typealias ElementID = Identifier<ElementKind>

extension Identifier where Kind == ElementKind {
    /// Identifiers for options named by `labels` (people, categories), in the same order, that a
    /// script can type: the letters and digits of each label in lower case, its words joined by
    /// dashes (`Sam Park` is `sam-park`); a label with none is `option`. A second label alike
    /// gets `-2`, a third `-3`, in the order given.
    public static func readable(for labels: [String]) -> [ElementID] {
        var taken: Set<String> = []
        return labels.map { label in
            let words = label.lowercased().split { !($0.isLetter || $0.isNumber) }
            let base = words.isEmpty ? "option" : words.joined(separator: "-")
            var candidate = base
            var number = 1
            while taken.contains(candidate) {
                number += 1
                candidate = "\(base)-\(number)"
            }
            taken.insert(candidate)
            return ElementID(candidate)
        }
    }
}
