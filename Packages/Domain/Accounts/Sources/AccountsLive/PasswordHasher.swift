import Foundation
import Crypto
import Dispatch
import Accounts
import CBcrypt
import Synchronization

/// Hashes and checks passwords with bcrypt, from the system's libcrypt (``Bcrypt``).
///
/// bcrypt reads at most 72 bytes and stops at a NUL byte, so the password is first reduced to
/// the base64 text of its SHA-256 digest (44 bytes): every character of a long password counts.
/// Hashing is slow on purpose and runs off the concurrency pool.
public struct PasswordHasher: Sendable {
    /// log2 of bcrypt's rounds: 12 in the app; tests use the minimum, 4.
    public let cost: UInt8
    /// What a throwaway store's hasher already worked out (``fixtures``).
    private let remembered: Remembered?

    public init(cost: UInt8 = 12) {
        self.cost = min(max(cost, 4), 31)
        remembered = nil
    }

    /// The hasher of throwaway stores (tests, scripts, random walks): bcrypt's lowest cost, each
    /// password hashed once in the process and each check made once, on the caller's thread. The
    /// accounts it hashes for share one salt per password: never for a store that is kept.
    public static let fixtures = PasswordHasher(remembering: Remembered())

    private init(remembering: Remembered) {
        cost = 4
        remembered = remembering
    }

    /// Hashes by password, and checks by password and hash.
    private final class Remembered: Sendable {
        let hashes = Mutex<[String: String]>([:])
        let checks = Mutex<[[String]: Bool]>([:])
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

    /// Throws only where the system's libcrypt cannot hash with bcrypt: nothing is saved then.
    public func hash(_ password: String) async throws(AccountsError) -> String {
        let input = Self.prehash(password)
        let cost = cost
        if let remembered {
            if let known = remembered.hashes.withLock({ $0[input] }) { return known }
            guard let made = Bcrypt.hash(input, cost: cost) else { throw Self.unavailable }
            // Of two first hashes made at once (each with its own salt), the first kept is
            // everyone's: every store of the process holds the same hash for a password.
            return remembered.hashes.withLock { hashes in
                if let known = hashes[input] { return known }
                hashes[input] = made
                return made
            }
        }
        guard let hash = await Self.offPool({ Bcrypt.hash(input, cost: cost) }) else { throw Self.unavailable }
        return hash
    }

    private static let unavailable = AccountsError.refused("this system's libcrypt cannot hash with bcrypt")

    public func verify(_ password: String, against hash: String) async -> Bool {
        let input = Self.prehash(password)
        if let remembered {
            if let known = remembered.checks.withLock({ $0[[input, hash]] }) { return known }
            let matches = Bcrypt.verify(input, hash: hash)
            remembered.checks.withLock { $0[[input, hash]] = matches }
            return matches
        }
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

/// bcrypt ($2b$) through the C module CBcrypt, on the system's libcrypt: libxcrypt, which the
/// C library of Debian, Ubuntu, Fedora and Arch comes with, opened at the first password.
/// Hashes made by any other bcrypt (OpenBSD's, which earlier versions used) check the same.
enum Bcrypt {
    /// A hash of `input` at `cost` under a fresh random salt, or nil where libcrypt refuses.
    static func hash(_ input: String, cost: UInt8) -> String? {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        var output = [CChar](repeating: 0, count: Int(FLOWS_BCRYPT_HASH_LENGTH) + 1)
        let status = flows_bcrypt_hash(input, UInt32(cost), salt, &output, output.count)
        guard status == 0 else { return nil }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `input` hashes to `hash`; false for anything that is not a bcrypt hash.
    static func verify(_ input: String, hash: String) -> Bool {
        flows_bcrypt_verify(input, hash) == 1
    }
}
