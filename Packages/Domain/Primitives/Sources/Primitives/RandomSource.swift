/// Where random bytes come from: the system's generator in the app, a seeded one in tests so
/// that every run is identical.
public protocol RandomSource: Sendable {
    func bytes(_ count: Int) -> [UInt8]
}

/// The operating system's cryptographically secure generator (getrandom on Linux).
public struct SystemRandomSource: RandomSource {
    public init() {}

    /// Eight bytes for each call to the system (an identifier's sixteen take two), not one.
    public func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(0, count))
        while bytes.count < count {
            let word = generator.next()
            let wanted = count - bytes.count
            withUnsafeBytes(of: word) { bytes.append(contentsOf: $0.prefix(wanted)) }
        }
        return bytes
    }
}
