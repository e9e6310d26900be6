import Foundation
import Crypto
import Primitives

/// A session token: 256 random bits as base64url text. The store keeps only its SHA-256.
struct SessionToken {
    static let byteCount = 32

    let text: String

    static func random(using random: any RandomSource) -> SessionToken {
        SessionToken(text: Data(random.bytes(byteCount)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: ""))
    }

    /// The SHA-256 of a token's text, in hexadecimal: what the store keeps.
    static func hash(_ text: String) -> String {
        SHA256.hash(data: Array(text.utf8)).hexString
    }
}
