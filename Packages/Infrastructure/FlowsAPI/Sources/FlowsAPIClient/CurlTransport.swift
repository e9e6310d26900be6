import CCurl
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// How the generated client's requests travel: libcurl, loaded when the first request is made.
///
/// Not URLSession: on Linux it brings FoundationNetworking, whose libcurl and the dozens of
/// libraries behind it are loaded and relocated at every start of `flows`, server or not
/// (they cost most of a start). Here a run on the embedded store never loads them.
public struct CurlTransport: ClientTransport {
    /// The most seconds a request may take, connecting included.
    public var timeout: Int

    public init(timeout: Int = 20) {
        self.timeout = timeout
    }

    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        var base = baseURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        let url = base + (request.path ?? "")
        let sent: [UInt8] = if let body { try await [UInt8](collecting: body, upTo: .max) } else { [] }
        let lines = request.headerFields.map { "\($0.name.rawName): \($0.value)" }
        let method = request.method.rawValue
        let timeout = timeout
        let answer = await Self.offPool { Self.perform(method: method, url: url, headers: lines, body: sent, timeout: timeout) }
        switch answer {
        case .failure(let failure):
            throw failure
        case .success(let (status, headers, received)):
            var response = HTTPResponse(status: .init(code: status))
            response.headerFields = headers
            return (response, received.isEmpty ? nil : HTTPBody(received))
        }
    }

    /// Why a request had no answer.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, for the user.
        public enum Kind: Sendable { case unreachable, timedOut, noLibrary, other }
        public let kind: Kind
        public let description: String

        public init(kind: Kind, description: String) {
            self.kind = kind
            self.description = description
        }
    }

    private static func perform(
        method: String, url: String, headers: [String], body: [UInt8], timeout: Int
    ) -> Result<(Int, HTTPFields, [UInt8]), Failure> {
        var response = flows_http_response()
        defer { flows_http_response_free(&response) }
        let code = withCStrings(headers) { lines in
            body.withUnsafeBytes { bytes in
                flows_http_perform(method, url, lines, headers.count, bytes.baseAddress, body.count, timeout, &response)
            }
        }
        guard code == 0 else {
            let words = withUnsafeBytes(of: response.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let kind: Failure.Kind = switch response.curl_code {
            case -1: .noLibrary
            case Int32(FLOWS_CURLE_COULDNT_RESOLVE_HOST), Int32(FLOWS_CURLE_COULDNT_CONNECT): .unreachable
            case Int32(FLOWS_CURLE_OPERATION_TIMEDOUT): .timedOut
            default: .other
            }
            return .failure(Failure(kind: kind, description: words))
        }
        let headerText = response.headers.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: response.headers_length), as: UTF8.self) } ?? ""
        var fields = HTTPFields()
        for line in headerText.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            // The encoding libcurl took off: the body handed on is plain.
            if name == .contentEncoding || name == .contentLength { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        let received = response.body.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: response.body_length)) } ?? []
        return .success((response.status, fields, received))
    }

    /// `work` (a blocking request) off Swift's pool, on a thread of its own: a request blocks its thread until the answer comes (up to the
    /// timeout), and the global dispatch queue on Linux keeps about as many threads as cores,
    /// so requests waiting there would queue behind a slow one (a long poll) and time out.
    private static func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }
}

/// Calls `body` with `strings` as an array of C strings, alive for the call.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer { buffer in
        // An empty array's buffer may have no address: point at one nil instead.
        if let base = buffer.baseAddress { return body(base) }
        var none: UnsafePointer<CChar>? = nil
        return withUnsafePointer(to: &none) { body($0) }
    }
}
