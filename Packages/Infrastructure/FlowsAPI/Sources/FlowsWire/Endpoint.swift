import FlowsAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// One operation of the contract (docs/api/openapi.yaml) as a value: its id, method, path and
/// success status, how its input travels in a request and its output in the answer, and the
/// table its area's errors are refused by.
///
/// An operation is declared once, in its area's Remote module; flows-server serves it and the
/// Remote service calls it from that one declaration, so neither side is written per operation.
public struct Endpoint<Input: Sendable, Output: Sendable, Failure: Error>: Sendable {
    /// The contract's `operationId`.
    public let id: String
    public let method: HTTPRequest.Method
    /// The contract's path, with `{name}` for each path parameter.
    public let path: String
    /// The status of the documented success.
    public let status: HTTPResponse.Status
    public let request: RequestCoding<Input>
    public let response: ResponseCoding<Output>
    public let problems: ProblemTable<Failure>

    public init(
        _ id: String, _ method: HTTPRequest.Method, _ path: String, status: HTTPResponse.Status = .ok,
        request: RequestCoding<Input>, response: ResponseCoding<Output>, problems: ProblemTable<Failure>
    ) {
        self.id = id
        self.method = method
        self.path = path
        self.status = status
        self.request = request
        self.response = response
        self.problems = problems
    }
}

/// How a domain value is written in the contract's shape, and read back from it.
///
/// The one pair both sides use: the server reads requests and writes answers with it, a Remote
/// client writes requests and reads answers. A value the contract's shape holds but the domain
/// does not take is refused with the domain's own code, naming `field` (a JSON pointer, or the
/// path parameter's name).
public struct WireValue<Value: Sendable, Shape: Sendable>: Sendable {
    public let read: @Sendable (_ wire: Shape, _ field: String) throws(APIProblem) -> Value
    public let write: @Sendable (Value) -> Shape

    public init(
        read: @escaping @Sendable (_ wire: Shape, _ field: String) throws(APIProblem) -> Value,
        write: @escaping @Sendable (Value) -> Shape
    ) {
        self.read = read
        self.write = write
    }
}

extension WireValue where Value == Shape {
    /// The contract's own type, as it is.
    public static var same: Self { Self(read: { wire, _ in wire }, write: { $0 }) }
}

extension WireValue {
    /// A list of values, each read at its index.
    public func list() -> WireValue<[Value], [Shape]> {
        let read = read
        let write = write
        return WireValue<[Value], [Shape]>(
            read: { wires, field throws(APIProblem) in
                var values: [Value] = []
                values.reserveCapacity(wires.count)
                for (index, wire) in wires.enumerated() { values.append(try read(wire, "\(field)/\(index)")) }
                return values
            },
            write: { $0.map(write) }
        )
    }

    /// The value inside a wrapper of the contract (`{"friends": [...]}`), at `key`.
    public func wrapped<Wrapper: Sendable>(
        _ key: String, in wrap: @escaping @Sendable (Shape) -> Wrapper, _ unwrap: @escaping @Sendable (Wrapper) -> Shape
    ) -> WireValue<Value, Wrapper> {
        let read = read
        let write = write
        return WireValue<Value, Wrapper>(read: { wrapper, field throws(APIProblem) in try read(unwrap(wrapper), "\(field)/\(key)") }, write: { wrap(write($0)) })
    }
}

/// The wire forms of the domain's values (``WireValue``s), one each: the shared values' in
/// PrimitivesRemote, each area's in its Remote module.
public enum Wire {}

/// A header field an operation requires (`If-Match`): its name, how its value is written, and
/// the refusal of a request without it (`428 version-required`).
public struct WireHeader<Value: Sendable>: Sendable {
    public let name: String
    public let value: WireValue<Value, String>
    public let missing: APIProblem

    public init(_ name: String, _ value: WireValue<Value, String>, missing: APIProblem) {
        self.name = name
        self.value = value
        self.missing = missing
    }
}

/// The parts of a request an operation's input travels in.
public struct WireRequest: Sendable {
    /// Path parameters by name, as they appear in the path (not percent-encoded).
    public var path: [String: String] = [:]
    /// Query parameters by name.
    public var query: [String: String] = [:]
    /// The JSON body.
    public var body: Data?
    /// Header fields the operation reads (`If-Match`), by name: a server's request has them in
    /// lower case (header names have no case), and ``RequestCoding/header(_:_:missing:)`` reads either.
    public var headers: [String: String] = [:]

    public init(path: [String: String] = [:], query: [String: String] = [:], body: Data? = nil, headers: [String: String] = [:]) {
        self.path = path
        self.query = query
        self.body = body
        self.headers = headers
    }
}

/// How an operation's input is written into a request and read from one.
public struct RequestCoding<Input: Sendable>: Sendable {
    public let write: @Sendable (Input) throws -> WireRequest
    /// Reads the input; a request the contract does not take throws an ``APIProblem`` or a
    /// `DecodingError` (which names the field).
    public let read: @Sendable (WireRequest) throws -> Input
    /// Whether the operation takes a JSON body.
    public let hasBody: Bool
}

extension RequestCoding where Input == Void {
    /// Nothing but the path.
    public static var none: Self { Self(write: { _ in WireRequest() }, read: { _ in () }, hasBody: false) }
}

extension RequestCoding {
    /// A JSON body.
    public static func body<Shape: Codable & Sendable>(_ value: WireValue<Input, Shape>) -> Self {
        Self(
            write: { WireRequest(body: try WireJSON.encode(value.write($0))) },
            read: { request in try value.read(try WireJSON.decodeBody(Shape.self, from: request.body), "") },
            hasBody: true
        )
    }

    /// One path parameter.
    public static func path(_ name: String, _ value: WireValue<Input, String>) -> Self {
        Self(write: { WireRequest(path: [name: value.write($0)]) }, read: { try value.read($0.path[name] ?? "", name) }, hasBody: false)
    }

    /// Two path parameters (`/groups/{groupId}/members/{personId}`).
    public static func path<First, Second>(
        _ firstName: String, _ first: WireValue<First, String>, _ secondName: String, _ second: WireValue<Second, String>
    ) -> Self where Input == (First, Second) {
        Self(
            write: { input in WireRequest(path: [firstName: first.write(input.0), secondName: second.write(input.1)]) },
            read: { request in (try first.read(request.path[firstName] ?? "", firstName), try second.read(request.path[secondName] ?? "", secondName)) },
            hasBody: false
        )
    }

    /// One path parameter and a JSON body.
    public static func path<Key, Body, Shape: Codable & Sendable>(
        _ name: String, _ key: WireValue<Key, String>, body: WireValue<Body, Shape>
    ) -> Self where Input == (Key, Body) {
        Self(
            write: { input in WireRequest(path: [name: key.write(input.0)], body: try WireJSON.encode(body.write(input.1))) },
            read: { request in
                (try key.read(request.path[name] ?? "", name), try body.read(try WireJSON.decodeBody(Shape.self, from: request.body), ""))
            },
            hasBody: true
        )
    }
}

extension RequestCoding {
    /// This coding, and a header field the operation requires besides (``WireHeader``).
    public func header<Value>(_ field: WireHeader<Value>) -> RequestCoding<(Input, Value)> {
        let (write, read) = (self.write, self.read)
        return RequestCoding<(Input, Value)>(
            write: { input in
                var request = try write(input.0)
                request.headers[field.name] = field.value.write(input.1)
                return request
            },
            read: { request in
                guard let text = request.headers[field.name] ?? request.headers[field.name.lowercased()] else { throw field.missing }
                return (try read(request), try field.value.read(text, field.name))
            },
            hasBody: hasBody
        )
    }

    /// This coding, and a query parameter the operation may take besides (`?id=` of a creating
    /// operation, for an id made by the client).
    public func query<Value>(optional name: String, _ value: WireValue<Value, String>) -> RequestCoding<(Input, Value?)> {
        let (write, read) = (self.write, self.read)
        return RequestCoding<(Input, Value?)>(
            write: { input in
                var request = try write(input.0)
                if let given = input.1 { request.query[name] = value.write(given) }
                return request
            },
            read: { request in (try read(request), try request.query[name].map { text throws(APIProblem) in try value.read(text, name) }) },
            hasBody: hasBody
        )
    }

    /// Query parameters.
    public static func query(_ value: WireValue<Input, [String: String]>) -> Self {
        Self(write: { WireRequest(query: value.write($0)) }, read: { try value.read($0.query, "") }, hasBody: false)
    }

    /// One path parameter and query parameters.
    public static func path<Key, Query>(_ name: String, _ key: WireValue<Key, String>, query: WireValue<Query, [String: String]>) -> Self
    where Input == (Key, Query) {
        Self(
            write: { input in WireRequest(path: [name: key.write(input.0)], query: query.write(input.1)) },
            read: { request in (try key.read(request.path[name] ?? "", name), try query.read(request.query, "")) },
            hasBody: false
        )
    }
}

/// How an operation's output is written into its answer and read from it.
public struct ResponseCoding<Output: Sendable>: Sendable {
    public let write: @Sendable (Output) throws -> Data?
    public let read: @Sendable (Data) throws -> Output
}

extension ResponseCoding where Output == Void {
    /// No body (`204`).
    public static var none: Self { Self(write: { _ in nil }, read: { _ in () }) }
}

extension ResponseCoding {
    /// A JSON body.
    public static func json<Shape: Codable & Sendable>(_ value: WireValue<Output, Shape>) -> Self {
        Self(write: { try WireJSON.encode(value.write($0)) }, read: { try value.read(try WireJSON.decoder.decode(Shape.self, from: $0), "") })
    }
}

extension ResponseCoding where Output == Data {
    /// A body written already, as it goes (a server's page of a pull made ahead of its request).
    public static var written: Self { Self(write: { $0 }, read: { $0 }) }
}

/// How an area's errors travel: the refusal the server answers each with, and the error a
/// client rebuilds from a refusal (or from no answer). One table per area, read both ways.
public struct ProblemTable<Failure: Error>: Sendable {
    public let problem: @Sendable (Failure) -> APIProblem
    public let failure: @Sendable (RemoteFailure) -> Failure

    public init(problem: @escaping @Sendable (Failure) -> APIProblem, failure: @escaping @Sendable (RemoteFailure) -> Failure) {
        self.problem = problem
        self.failure = failure
    }
}

/// JSON as the contract writes it: keys sorted, instants to the millisecond (as the
/// generated types' own coding does).
public enum WireJSON {
    static let instants = InstantTranscoder()

    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(try instants.encode(date))
        }
        return encoder
    }

    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            return try instants.decode(try container.decode(String.self))
        }
        return decoder
    }

    public static func encode(_ value: some Encodable) throws -> Data { try encoder.encode(value) }

    /// A request's required body; none at all is `400`.
    public static func decodeBody<Shape: Decodable>(_ type: Shape.Type, from body: Data?) throws -> Shape {
        guard let body else { throw APIProblem.invalidRequest("This operation takes a JSON body; none was sent.") }
        return try decoder.decode(type, from: body)
    }
}
