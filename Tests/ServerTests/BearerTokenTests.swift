@testable import FlowsServer
import Testing

@Suite("Reading the bearer token of a request")
struct BearerTokenTests {
    @Test("the scheme in any case, the token without the blanks around it; anything else is no token", arguments: [
        ("Bearer abc", "abc"),
        ("bearer abc", "abc"),
        ("BEARER  abc \t", "abc"),
        ("Bearer \u{00A0}abc\u{2003}", "abc"),
        ("Bearer a b", "a b"),
        ("Bearer ", nil),
        ("Bearer \t ", nil),
        ("Basic abc", nil),
        ("Bearerabc", nil),
        ("Bearer " + String(repeating: "x", count: 257), nil),
    ] as [(String, String?)])
    func bearerToken(header: String, token: String?) {
        #expect(SessionMiddleware.bearerToken(header) == token)
    }

    @Test("no header, no token")
    func noHeader() {
        #expect(SessionMiddleware.bearerToken(nil) == nil)
    }
}
