import Foundation
import Crypto
import Dispatch
import HummingbirdBcrypt

/// Hashes and checks passwords with bcrypt.
///
/// bcrypt reads at most 72 bytes and stops at a NUL byte, so the password is first reduced to
/// the base64 text of its SHA-256 digest (44 bytes): every character of a long password counts.
/// Hashing is slow on purpose and runs off the concurrency pool.
public struct PasswordHasher: Sendable {
    /// log2 of bcrypt's rounds: 12 in the app; tests use the minimum, 4.
    public let cost: UInt8

    public init(cost: UInt8 = 12) {
        self.cost = min(max(cost, 4), 31)
    }

    /// A bcrypt hash of this cost that no password matches, written out rather than computed:
    /// checking a password against it costs exactly one bcrypt run, the same as a real check,
    /// even the first time in a fresh process. (Its salt is fixed; its checksum is not the
    /// output of any password, so the check always fails.)
    public var decoyHash: String {
        let digits = cost < 10 ? "0\(cost)" : "\(cost)"
        return "$2b$\(digits)$" + "decoydecoydecoydecoyde" + String(repeating: ".", count: 31)
    }

    /// Spends as long as a real check, so timing does not tell which emails have accounts.
    public func verifyDecoy(_ password: String) async {
        _ = await verify(password, against: decoyHash)
    }

    public func hash(_ password: String) async -> String {
        let input = Self.prehash(password)
        let cost = cost
        return await Self.offPool { Bcrypt.hash(input, cost: cost) }
    }

    public func verify(_ password: String, against hash: String) async -> Bool {
        let input = Self.prehash(password)
        return await Self.offPool { Bcrypt.verify(input, hash: hash) }
    }

    static func prehash(_ password: String) -> String {
        Data(SHA256.hash(data: Array(password.utf8))).base64EncodedString()
    }

    private static func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }
}
