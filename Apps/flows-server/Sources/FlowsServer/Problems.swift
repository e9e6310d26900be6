import Accounts
import FlowsAPI
import FlowsWire
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The server's own refusals, and how any refusal is written out.
extension APIProblem {
    /// The response: the problem as JSON, with `headers`.
    var response: (HTTPResponse, HTTPBody) {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return (HTTPResponse(status: status, headerFields: fields), HTTPBody(bodyBytes))
    }

    // MARK: - The HTTP layer's own

    static var sessionExpired: APIProblem {
        var problem = APIProblem(.unauthorized, .sessionExpired, StoredSession.expiredNotice)
        problem.headers[.wwwAuthenticate] = #"Bearer error="invalid_token", error_description="session expired""#
        return problem
    }

    /// A body that did not arrive whole in time: for the log, as its connection is closed.
    static func requestTimeout(_ timeout: Duration) -> APIProblem {
        APIProblem(.requestTimeout, .invalidRequest, "The request's body did not arrive within \(timeout).")
    }

    static func payloadTooLarge(limit: Int) -> APIProblem {
        let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
        return APIProblem(.contentTooLarge, .payloadTooLarge, "The request is larger than \(size).")
    }

    static var notReady: APIProblem {
        APIProblem(.serviceUnavailable, .notReady, "The server is not ready: its store does not answer yet.")
    }
}
