import Synchronization

/// A deterministic generator (SplitMix64) for tests and reproducible runs. Not secure.
public final class SeededRandomSource: RandomSource {
    private let state: Mutex<UInt64>

    public init(seed: UInt64) {
        state = Mutex(seed)
    }

    /// Where the source is in its sequence: a source seeded with it, or moved to it, goes on
    /// exactly as this one does from here.
    public var position: UInt64 {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }

    public func bytes(_ count: Int) -> [UInt8] {
        state.withLock { state in
            var result: [UInt8] = []
            result.reserveCapacity(count)
            while result.count < count {
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                z ^= z >> 31
                withUnsafeBytes(of: z.littleEndian) { result.append(contentsOf: $0.prefix(count - result.count)) }
            }
            return result
        }
    }
}
