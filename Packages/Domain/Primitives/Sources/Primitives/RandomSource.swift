/// Where random bytes come from: the system's generator in the app, a seeded one in tests so
/// that every run is identical.
public protocol RandomSource: Sendable {
    func bytes(_ count: Int) -> [UInt8]
}

/// The operating system's cryptographically secure generator (getrandom on Linux).
public struct SystemRandomSource: RandomSource {
    public init() {}

    public func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
