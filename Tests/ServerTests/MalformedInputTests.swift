import FlowsAPI
import Foundation
import Testing

/// Requests no client should send: each is refused with a `4xx` and a Problem, never a `5xx`;
/// nothing changes, and the server serves on.
@Suite(.timeLimit(.minutes(2)))
struct MalformedInputTests {
    @Test("every body an operation takes, broken every way, is refused with a Problem")
    func malformedBodies() async throws {
        _ = try checkCallsCoverTheContract()
        try await LiveServer.with { server in
            let world = try await World.make(on: server)
            let adaSaw = try await world.everythingSeen(with: world.ada.token)
            let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
            let deepObject = String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)
            var sent = 0
            for call in contractCalls {
                guard let valid = call.body(in: world) else { continue }
                let object = try #require(try JSONSerialization.jsonObject(with: Data(valid.utf8)) as? [String: Any])
                var bodies: [(what: String, body: Data)] = [
                    ("malformed JSON", Data(valid.dropLast().utf8)),
                    ("an empty body", Data()),
                    ("an array of the body", Data("[\(valid)]".utf8)),
                    ("null", Data("null".utf8)),
                    ("a string", Data(#""text""#.utf8)),
                    ("a number", Data("42".utf8)),
                    ("an unknown field", Data((valid.dropLast() + #","surprise":true}"#).utf8)),
                    ("10,000 nested arrays", Data(deep.utf8)),
                    ("10,000 nested objects", Data(deepObject.utf8)),
                    ("bytes that are not UTF-8", Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D])),
                    ("a comment", Data("/* hi */ \(valid)".utf8)),
                    ("two documents", Data("\(valid)\(valid)".utf8)),
                ]
                for (key, value) in object {
                    bodies.append(("\(key) of the wrong type", Self.json(object, setting: key, to: Self.wrongType(for: value))))
                    bodies.append(("\(key) nested 10,000 deep", Self.json(object, replacing: key, with: deep)))
                    guard !call.optionalKeys.contains(key) else { continue }
                    bodies.append(("\(key) null", Self.json(object, setting: key, to: NSNull())))
                    bodies.append(("\(key) missing", Self.json(object, setting: key, to: nil)))
                }
                for (what, body) in bodies {
                    let answer = try await server.raw(call.method, call.path(in: world), token: world.ada.token, body: body, headers: call.headers(in: world))
                    expectRefused(answer, "\(call.id) with \(what)")
                    sent += 1
                }
            }
            #expect(sent > 400)
            try await expectServing(world)
            #expect(try await world.everythingSeen(with: world.ada.token) == adaSaw)
        }
    }

    @Test("numbers out of range, wrong inside nested values, and strings up to the body limit are refused with a Problem")
    func values() async throws {
        try await LiveServer.with { server in
            let world = try await World.make(on: server)
            let (ada, bob) = (world.ada, world.bob)
            let adaSaw = try await world.everythingSeen(with: ada.token)
            func draft(amount: String = #"{"minorUnits":1200,"currency":"EUR"}"#, description: String = "Lunch", note: String = "") -> String {
                #"{"description":"\#(description)","amount":\#(amount),"day":"2026-11-21","category":"food","payers":[{"user":"\#(ada.id)","amount":\#(amount)}],"participants":["\#(ada.id)","\#(bob.id)"],"rule":{"mode":"equal"}\#(note)}"#
            }
            let long = String(repeating: "x", count: 1_900_000)
            let marks = String(repeating: "e\u{301}", count: 400_000)
            let requests: [(what: String, method: String, path: String, body: String)] = [
                ("minor units beyond 64 bits", "POST", "/expenses", draft(amount: #"{"minorUnits":9223372036854775808,"currency":"EUR"}"#)),
                ("minor units 1e400", "POST", "/expenses", draft(amount: #"{"minorUnits":1e400,"currency":"EUR"}"#)),
                ("minor units 1.5", "POST", "/expenses", draft(amount: #"{"minorUnits":1.5,"currency":"EUR"}"#)),
                ("minor units as text", "POST", "/expenses", draft(amount: #"{"minorUnits":"1200","currency":"EUR"}"#)),
                ("minor units negative", "POST", "/expenses", draft(amount: #"{"minorUnits":-1200,"currency":"EUR"}"#)),
                ("minor units zero", "POST", "/expenses", draft(amount: #"{"minorUnits":0,"currency":"EUR"}"#)),
                ("minor units beyond the ledger's bound", "POST", "/expenses", draft(amount: #"{"minorUnits":9223372036854775807,"currency":"EUR"}"#)),
                ("a currency in lower case", "POST", "/expenses", draft(amount: #"{"minorUnits":1200,"currency":"eur"}"#)),
                ("a currency of 3,000 letters", "POST", "/expenses", draft(amount: #"{"minorUnits":1200,"currency":"\#(String(repeating: "E", count: 3_000))"}"#)),
                ("a money with an unknown field", "POST", "/expenses", draft(amount: #"{"minorUnits":1200,"currency":"EUR","rate":1}"#)),
                ("a day that is not one", "POST", "/expenses", draft().replacingOccurrences(of: "2026-11-21", with: "2026-02-30")),
                ("a day of text", "POST", "/expenses", draft().replacingOccurrences(of: "2026-11-21", with: "yesterday")),
                ("a split mode no one knows", "POST", "/expenses", draft().replacingOccurrences(of: #""mode":"equal""#, with: #""mode":"random""#)),
                ("a category no one knows", "POST", "/expenses", draft().replacingOccurrences(of: #""food""#, with: #""bribes""#)),
                ("a participant that is not an id", "POST", "/expenses", draft().replacingOccurrences(of: #""\#(bob.id)"]"#, with: #""bob"]"#)),
                ("a description of 1.9 MB", "POST", "/expenses", draft(description: long)),
                ("a description of 400,000 accents", "POST", "/expenses", draft(description: marks)),
                ("a note of 1.9 MB", "POST", "/expenses", draft(note: #","note":"\#(long)""#)),
                ("a display name of 1.9 MB", "PUT", "/me/display-name", #"{"displayName":"\#(long)"}"#),
                ("a display name of 400,000 accents", "PUT", "/me/display-name", #"{"displayName":"\#(marks)"}"#),
                ("a display name of 100 accented letters, 200 code points", "PUT", "/me/display-name", #"{"displayName":"\#(String(repeating: "e\u{301}", count: 100))"}"#),
                ("a display name with a NUL", "PUT", "/me/display-name", #"{"displayName":"Ada\u0000"}"#),
                ("a lone surrogate", "PUT", "/me/display-name", #"{"displayName":"Ada \ud800"}"#),
                ("an email of 1.9 MB", "POST", "/accounts", #"{"email":"\#(long)@example.com","displayName":"Long","password":"correct horse"}"#),
                ("a password of 1.9 MB", "POST", "/accounts", #"{"email":"long@example.com","displayName":"Long","password":"\#(long)"}"#),
                ("a sign-in password of 1.9 MB", "POST", "/sessions", #"{"email":"ada@example.com","password":"\#(long)"}"#),
                ("a friend code of 1.9 MB", "POST", "/users/by-friend-code", #"{"friendCode":"\#(long)"}"#),
                ("an email lookup of 1.9 MB", "POST", "/users/by-email", #"{"email":"\#(long)"}"#),
                ("a contact name of 1.9 MB", "POST", "/contacts", #"{"name":"\#(long)"}"#),
                ("an avatar that is not base64", "PUT", "/me/avatar", #"{"kind":"image","data":"\#(String(repeating: "!", count: 1_000))"}"#),
                ("an avatar of 1.9 MB of base64", "PUT", "/me/avatar", #"{"kind":"image","data":"\#(String(repeating: "A", count: 1_900_000))"}"#),
                ("50,000 ids", "POST", "/people/names", #"{"ids":[\#(Array(repeating: "\"\(bob.id)\"", count: 50_000).joined(separator: ","))]}"#),
                ("a share of 2^40", "PUT", "/expenses/\(world.dinner.id)", draft().replacingOccurrences(of: #"{"mode":"equal"}"#, with: #"{"mode":"shares","shares":{"\#(ada.id)":1099511627776}}"#)),
                ("shares keyed by what is not an id", "POST", "/expenses", draft().replacingOccurrences(of: #"{"mode":"equal"}"#, with: #"{"mode":"shares","shares":{"ada":1}}"#)),
            ]
            for request in requests {
                let answer = try await server.raw(request.method, request.path, token: ada.token, json: request.body)
                expectRefused(answer, request.what)
            }
            try await expectServing(world)
            #expect(try await world.everythingSeen(with: ada.token) == adaSaw)
        }
    }

    @Test("media types: a body that is not JSON is 415, an answer the client does not take is 406, before anything is written")
    func mediaTypes() async throws {
        try await LiveServer.with { server in
            let world = try await World.make(on: server)
            let (ada, bob) = (world.ada, world.bob)
            let adaSaw = try await world.everythingSeen(with: ada.token)
            let draft = Data(#"{"description":"Lunch","amount":{"minorUnits":1200,"currency":"EUR"},"day":"2026-11-21","category":"food","payers":[{"user":"\#(ada.id)","amount":{"minorUnits":1200,"currency":"EUR"}}],"participants":["\#(ada.id)","\#(bob.id)"],"rule":{"mode":"equal"}}"#.utf8)
            func expenses() async throws -> String { try await server.raw("GET", "/expenses?limit=1000", token: ada.token).text }
            let before = try await expenses()
            let contentTypes = [
                "text/plain", "application/xml", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "json", "*/*",
                "application/*", "application/json-patch+json", "application/json; q=x",
            ]
            for contentType in contentTypes {
                let answer = try await server.raw("POST", "/expenses", token: ada.token, body: draft, contentType: contentType)
                expectRefused(answer, "a body sent as \(contentType)")
                #expect(answer.status == 415, "a body sent as \(contentType): \(answer)")
            }
            // The generated code checks Accept once the answer is written: the expense was added
            // and the client told 406. The server checks it first.
            for accept in ["text/plain", "text/html", "application/xml", "application/json;q=0", "text/event-stream", "*/*;q=0", "*/*, application/json;q=0"] {
                let added = try await server.raw("POST", "/expenses", token: ada.token, body: draft, headers: ["Accept": accept])
                expectRefused(added, "adding an expense with Accept: \(accept)")
                #expect(added.status == 406, "adding an expense with Accept: \(accept): \(added)")
                let read = try await server.raw("GET", "/balances", token: ada.token, headers: ["Accept": accept])
                #expect(read.status == 406 && read.problemCode == "invalid-request", "reading balances with Accept: \(accept): \(read)")
            }
            for accept in ["garbage", "application/json;q=2", "/json"] {
                let added = try await server.raw("POST", "/expenses", token: ada.token, body: draft, headers: ["Accept": accept])
                #expect(added.status == 400 && added.problemCode == "invalid-request", "adding an expense with Accept: \(accept): \(added)")
            }
            #expect(try await expenses() == before)
            // The stream answers text/event-stream only.
            let stream = try await server.raw("GET", "/preferences/changes", token: ada.token, headers: ["Accept": "application/json"])
            #expect(stream.status == 406 && stream.problemCode == "invalid-request", "\(stream)")
            // What a client may say it takes.
            for accept in ["application/json", "*/*", "application/*", "text/html, application/json;q=0.5", "application/json; charset=utf-8", "APPLICATION/JSON"] {
                let read = try await server.raw("GET", "/balances", token: ada.token, headers: ["Accept": accept])
                #expect(read.status == 200, "reading balances with Accept: \(accept): \(read)")
            }
            // A charset is not a different type.
            let withCharset = try await server.raw(
                "PUT", "/me/display-name", token: ada.token, body: Data(#"{"displayName":"Ada"}"#.utf8), contentType: "application/json; charset=utf-8"
            )
            #expect(withCharset.status == 200, "\(withCharset)")
            try await expectServing(world)
            #expect(try await world.everythingSeen(with: ada.token) == adaSaw)
        }
    }

    @Test("paths and queries the contract does not take are refused with a Problem")
    func pathsAndQueries() async throws {
        try await LiveServer.with { server in
            let world = try await World.make(on: server)
            let ada = world.ada
            let adaSaw = try await world.everythingSeen(with: ada.token)
            let upper = world.dinner.id.uppercased()
            let long = String(repeating: "a", count: 10_000)
            let requests: [(method: String, path: String)] = [
                ("GET", "/expenses/not-a-uuid"), ("GET", "/expenses/\(upper)"), ("PUT", "/expenses/42"), ("DELETE", "/expenses/%20"),
                ("GET", "/expenses/\(long)"), ("GET", "/expenses/\(world.dinner.id)%00"), ("POST", "/deleted-expenses/x/restore"),
                ("DELETE", "/settlements/\(world.payment.id.dropLast())"), ("GET", "/friends/..%2F..%2Fme"), ("DELETE", "/friends/null"),
                ("POST", "/contacts/%F0%9F%98%80/link"), ("POST", "/contacts/-/link-target"), ("GET", "/people/%7BpersonId%7D/shared-expenses"),
                ("GET", "/users/ada/avatar"),
                ("GET", "/expenses?limit=0"), ("GET", "/expenses?limit=1001"), ("GET", "/expenses?limit=-1"), ("GET", "/expenses?offset=-1"),
                ("GET", "/expenses?limit=abc"), ("GET", "/expenses?offset=1.5"), ("GET", "/expenses?limit=99999999999"),
                ("GET", "/expenses?limit="), ("GET", "/settlements?offset=2147483648"), ("GET", "/activity?limit=%00"),
                ("GET", "/deleted-expenses?limit=1e3"), ("GET", "/people/\(world.bob.id)/shared-expenses?limit=0"),
                ("GET", "/suggested-payments"), ("GET", "/suggested-payments?currency=eur"), ("GET", "/suggested-payments?currency=EURO"),
                ("GET", "/suggested-payments?currency=XYZ"), ("GET", "/reports/spending?from=2026-13-01"),
                ("GET", "/reports/spending?from=yesterday"), ("GET", "/reports/spending?through=2026-02-30"),
                ("GET", "/reports/spending?from=2026-12-01&through=2026-11-01"),
                ("GET", "/nowhere"), ("PATCH", "/me"), ("DELETE", "/balances"), ("POST", "/health"),
            ]
            for request in requests {
                let answer = try await server.raw(request.method, request.path, token: ada.token)
                // A report from December through November is empty, not wrong.
                if request.path.hasSuffix("through=2026-11-01") {
                    #expect(answer.status == 200 || (400..<500).contains(answer.status), "\(request.path): \(answer)")
                    continue
                }
                expectRefused(answer, "\(request.method) \(request.path)")
            }
            // A path the contract has, with a method it does not take, says which it takes.
            for (method, path, allowed) in [("PATCH", "/me", "GET"), ("PUT", "/expenses", "GET, POST"), ("POST", "/expenses/\(world.dinner.id)", "DELETE, GET, PUT"), ("TRACE", "/balances", "GET")] {
                let answer = try await server.raw(method, path, token: ada.token)
                #expect(answer.status == 405 && answer.problemCode == "invalid-request" && answer.headers["allow"] == allowed, "\(method) \(path): \(answer) \(answer.headers)")
            }
            let nowhere = try await server.raw("GET", "/expenses/\(world.dinner.id)/nowhere", token: ada.token)
            #expect(nowhere.status == 404 && nowhere.problemCode == "invalid-request", "\(nowhere)")
            try await expectServing(world)
            #expect(try await world.everythingSeen(with: ada.token) == adaSaw)
        }
    }

    @Test("bodies over 2 MiB are refused with 413, with a Content-Length and chunked")
    func hugeBodies() async throws {
        try await LiveServer.with { server in
            let world = try await World.make(on: server)
            let ada = world.ada
            let size = 3 << 20
            // With a Content-Length: refused before the body is read.
            let declared = try RawConnection(port: server.port)
            try await declared.send(
                "POST /expenses HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(ada.token)\r\nContent-Type: application/json\r\nContent-Length: \(size)\r\n\r\n"
            )
            try? await declared.send(bytes: Array(repeating: UInt8(ascii: " "), count: 64 << 10))
            let refused = try await declared.response()
            expectRefused(refused, "3 MiB with a Content-Length")
            #expect(refused.status == 413 && refused.problemCode == "payload-too-large", "\(refused)")

            // Chunked: refused once 2 MiB have come.
            let chunked = try RawConnection(port: server.port)
            try await chunked.send(
                "POST /me/display-name HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(ada.token)\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            )
            let chunk = Array("10000\r\n".utf8) + Array(repeating: UInt8(ascii: " "), count: 0x10000) + Array("\r\n".utf8)
            var sent = 0
            while sent < size {
                // The server may stop reading once it has refused: what it answered is what counts.
                guard (try? await chunked.send(bytes: chunk)) != nil else { break }
                sent += 0x10000
            }
            try? await chunked.send("0\r\n\r\n")
            let tooLarge = try await chunked.response()
            expectRefused(tooLarge, "3 MiB chunked")
            #expect(tooLarge.status == 413 && tooLarge.problemCode == "payload-too-large", "\(tooLarge)")
            try await expectServing(world)
        }
    }
}

extension MalformedInputTests {
    /// The body with `key` set to `value` (nil: left out).
    static func json(_ object: [String: Any], setting key: String, to value: Any?) -> Data {
        var object = object
        object[key] = value
        return (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
    }

    /// The body with `key`'s value replaced by `text`, written as it is.
    static func json(_ object: [String: Any], replacing key: String, with text: String) -> Data {
        var object = object
        object[key] = "\u{1}"
        let written = String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data(), as: UTF8.self)
        return Data(written.replacingOccurrences(of: #""\u0001""#, with: text).utf8)
    }

    /// A value of another JSON type than `value`'s.
    static func wrongType(for value: Any) -> Any {
        switch value {
        case is String: 12_345
        case is NSNumber: "12"
        default: "text"
        }
    }
}

/// A `4xx` with a Problem (`error` and `message`).
func expectRefused(_ answer: RawResponse, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect((400..<500).contains(answer.status), "\(what): \(answer)", sourceLocation: sourceLocation)
    #expect(answer.problemCode != nil, "\(what): not a Problem: \(answer)", sourceLocation: sourceLocation)
}

/// The server answers its health check and a signed-in read.
func expectServing(_ world: World, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    #expect(try await world.server.raw("GET", "/health").status == 200, sourceLocation: sourceLocation)
    #expect(try await world.server.raw("GET", "/me", token: world.ada.token).status == 200, sourceLocation: sourceLocation)
}
