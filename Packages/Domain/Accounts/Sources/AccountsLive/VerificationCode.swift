import Accounts
import Primitives

/// A code of ``EmailVerificationPolicy/codeLength`` digits, each equally likely, and what the
/// store keeps of it.
struct VerificationCode {
    let digits: String

    static func random(using random: any RandomSource) -> VerificationCode {
        var limit = 1
        for _ in 0..<EmailVerificationPolicy.codeLength { limit *= 10 }
        // 2^32 is no multiple of 10^6: numbers from the last multiple up are drawn again, so
        // every code is equally likely (a source that gives nothing else after many rounds,
        // which no real one does, gets them folded in rather than a loop that never ends).
        let ceiling = UInt64(UInt32.max) + 1 - (UInt64(UInt32.max) + 1) % UInt64(limit)
        var value: UInt64 = 0
        for round in 1...64 {
            value = random.bytes(4).reduce(0) { $0 << 8 | UInt64($1) }
            if value < ceiling || round == 64 { break }
        }
        let text = String(value % UInt64(limit))
        return VerificationCode(digits: String(repeating: "0", count: EmailVerificationPolicy.codeLength - text.count) + text)
    }

    /// What the store keeps: the SHA-256 of the user's id and the digits, so that one user's
    /// hash says nothing about another's.
    static func hash(_ digits: String, of user: String) -> String {
        SessionToken.hash("\(user):\(digits)")
    }
}
