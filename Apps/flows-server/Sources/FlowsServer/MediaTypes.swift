import FlowsAPI
import FlowsWire
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Checks the media types of a request before its operation runs: a `Content-Type` that is not
/// a concrete media type is `415`, and an `Accept` that does not take what the operation answers
/// (`application/json`, or `text/event-stream` for the preferences stream) is `406`.
///
/// Checked before the operation runs, not once the answer is written: a client is never told
/// "not acceptable" about a change that happened. The header is set to the one type answered.
struct MediaTypeMiddleware: ServerMiddleware {
    static let streams: Set<String> = [EndpointRoutes.watchPreferences]

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let contentType = request.headerFields[.contentType], MediaRange(contentType)?.isConcrete != true {
            throw APIProblem(.unsupportedMediaType, .invalidRequest, "A body is sent as application/json, not \(contentType.prefix(100)).")
        }
        if let accept = request.headerFields[.accept] {
            let answered = Self.streams.contains(operationID) ? "text/event-stream" : "application/json"
            guard let takes = MediaRange.accepts(accept, answered) else {
                throw APIProblem.invalidRequest("The Accept header is not a list of media types.")
            }
            guard takes else {
                throw APIProblem(.notAcceptable, .invalidRequest, "This operation answers \(answered), which the Accept header does not take.")
            }
            request.headerFields[.accept] = answered
        }
        return try await next(request, body, metadata)
    }
}

/// A media type or range of a `Content-Type` or `Accept` header: `type/subtype`, maybe with
/// `*`, and its quality.
struct MediaRange: Equatable {
    let type: String
    let subtype: String
    let quality: Double

    /// Reads `type/subtype;parameters` (any case); nil when it is not one.
    init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        let range = parts[0].trimmingBlanks.lowercased().split(separator: "/", omittingEmptySubsequences: false)
        let token = { (part: Substring) in !part.isEmpty && part.allSatisfy { $0.isLetter || $0.isNumber || "!#$&^_.+-*".contains($0) } }
        guard range.count == 2, token(range[0]), token(range[1]), range[0] != "*" || range[1] == "*" else { return nil }
        var quality = 1.0
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingBlanks.lowercased() }
            if pair.count == 2, pair[0] == "q" {
                guard let value = Double(pair[1]), (0...1).contains(value) else { return nil }
                quality = value
            }
        }
        (type, subtype) = (String(range[0]), String(range[1]))
        self.quality = quality
    }

    /// A type a body can be, without `*`.
    var isConcrete: Bool { type != "*" && subtype != "*" }

    /// Whether `header` (an `Accept`) takes `answered`: the most specific range that matches it
    /// has a quality above 0 (RFC 9110, 12.5.1); nil when the header is malformed.
    static func accepts(_ header: String, _ answered: String) -> Bool? {
        guard let answer = MediaRange(answered) else { return false }
        var best: (specificity: Int, quality: Double)?
        for element in header.split(separator: ",") where !element.trimmingBlanks.isEmpty {
            guard let range = MediaRange(element) else { return nil }
            guard (range.type == "*" || range.type == answer.type) && (range.subtype == "*" || range.subtype == answer.subtype) else { continue }
            let specificity = (range.type == "*" ? 0 : 1) + (range.subtype == "*" ? 0 : 1)
            if let current = best, (specificity, range.quality) <= current { continue }
            best = (specificity, range.quality)
        }
        return (best?.quality ?? 0) > 0
    }
}

extension StringProtocol {
    /// Without the blanks around it. Header fields are read this way on every request, so not
    /// with Foundation's `CharacterSet`, which bridges through NSString.
    var trimmingBlanks: SubSequence {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
