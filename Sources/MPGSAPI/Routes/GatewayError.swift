import ApplePayToken
import GatewayCore
import Hummingbird
import WireJSON

/// An MPGS error response: `{"result":"ERROR","error":{"cause":...,"explanation":...,"field":...,"validationType":...}}`.
///
/// Every error a client can cause is one of these, with the field at fault where there is one.
package struct GatewayError: Error, HTTPResponseError, Sendable {
    enum Cause: String, Sendable {
        case invalidRequest = "INVALID_REQUEST"
        case requestRejected = "REQUEST_REJECTED"
        case serverBusy = "SERVER_BUSY"
        case serverFailed = "SERVER_FAILED"
    }

    enum ValidationType: String, Sendable {
        case missing = "MISSING"
        case invalid = "INVALID"
        case unsupported = "UNSUPPORTED"
    }

    package let status: HTTPResponse.Status
    let cause: Cause
    package let explanation: String
    package var field: String?
    var validationType: ValidationType?
    var supportCode: String?
    /// For 405: the methods the resource takes.
    var allow: String?

    var headers: HTTPFields {
        var headers: HTTPFields = [.contentType: "application/json;charset=UTF-8"]
        if status == .unauthorized { headers[.wwwAuthenticate] = "Basic realm=\"gateway\"" }
        if let allow { headers[.allow] = allow }
        // SERVER_BUSY (a store outage, a failover): worth retrying soon; the retry is idempotent.
        if cause == .serverBusy { headers[.retryAfter] = "1" }
        return headers
    }

    package var body: JSONValue {
        var error: [String: JSONValue] = ["cause": .string(cause.rawValue), "explanation": .string(explanation)]
        if let field { error["field"] = .string(field) }
        if let validationType { error["validationType"] = .string(validationType.rawValue) }
        if let supportCode { error["supportCode"] = .string(supportCode) }
        return .object(["result": .string("ERROR"), "error": .object(error)])
    }

    /// An Apple Pay token the front end refused before the core saw it (it could not be parsed):
    /// the route reports it to metrics. The core reports its own rejections.
    var unparsedTokenRejection: TokenRejection?

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body.serialized())))
    }
}

extension GatewayError {
    static func invalid(_ field: String, _ explanation: String) -> GatewayError {
        GatewayError(
            status: .badRequest,
            cause: .invalidRequest,
            explanation: explanation,
            field: field,
            validationType: .invalid
        )
    }

    /// A refused wallet token: every such error says "Apple Pay token rejected: CODE: why" (or
    /// "Google Pay token rejected: ...").
    static func tokenRejected(_ rejection: TokenRejection) -> GatewayError {
        if rejection.isUndecided {
            return GatewayError(
                status: .serviceUnavailable,
                cause: .serverBusy,
                explanation: "\(rejection.wallet.displayName) token not verified yet: \(rejection.code): \(rejection.reason)",
                field: PaymentProcessor.tokenField
            )
        }
        return invalid(PaymentProcessor.tokenField, "\(rejection.wallet.displayName) token rejected: \(rejection.code): \(rejection.reason)")
    }

    /// A token the front end could not parse: worded as every rejection, and marked for the
    /// route to report (the core never saw it).
    static func unparsableToken(_ rejection: TokenRejection) -> GatewayError {
        var refused = tokenRejected(rejection)
        refused.unparsedTokenRejection = rejection
        return refused
    }

    static func invalidValue(_ field: String, _ value: String, _ reason: String) -> GatewayError {
        invalid(field, "Value '\(value.prefix(64))' is invalid. \(reason)")
    }

    static func missing(_ field: String) -> GatewayError {
        GatewayError(
            status: .badRequest,
            cause: .invalidRequest,
            explanation: "Missing parameter '\(field)'",
            field: field,
            validationType: .missing
        )
    }

    static func unexpected(_ field: String) -> GatewayError {
        GatewayError(
            status: .badRequest,
            cause: .invalidRequest,
            explanation: "Unexpected parameter '\(field)'",
            field: field,
            validationType: .unsupported
        )
    }

    static func unsupported(_ field: String, _ value: String, _ reason: String) -> GatewayError {
        GatewayError(
            status: .badRequest,
            cause: .invalidRequest,
            explanation: "Value '\(value.prefix(64))' is invalid. \(reason)",
            field: field,
            validationType: .unsupported
        )
    }

    static func request(_ explanation: String) -> GatewayError {
        GatewayError(status: .badRequest, cause: .invalidRequest, explanation: explanation)
    }

    static func malformedJSON(_ detail: String) -> GatewayError {
        request("Json encoded payload error: \(detail)")
    }

    static let invalidCredentials = GatewayError(
        status: .unauthorized,
        cause: .invalidRequest,
        explanation: "Invalid credentials."
    )

    static let notAuthorisedForTarget = GatewayError(
        status: .unauthorized,
        cause: .invalidRequest,
        explanation: "Authenticated entity not authorised to perform operation for target entity"
    )

    static func notFound(_ explanation: String = "Requested resource not found") -> GatewayError {
        GatewayError(status: .notFound, cause: .invalidRequest, explanation: explanation)
    }

    static func serverFailed(supportCode: String) -> GatewayError {
        GatewayError(
            status: .internalServerError,
            cause: .serverFailed,
            explanation: "The gateway could not process the request. Quote the support code when contacting support.",
            supportCode: supportCode
        )
    }

    /// Another transaction on the same order won a race (between replicas): retry.
    static let lockFailure = GatewayError(
        status: .conflict,
        cause: .requestRejected,
        explanation: "LOCK_FAILURE: another transaction on this order was processed at the same time; retry the request"
    )

    static let serverBusy = GatewayError(
        status: .serviceUnavailable,
        cause: .serverBusy,
        explanation: "The gateway is busy. Retry the request."
    )
}

extension GatewayError {
    /// A request the HTTP parser refused: 400, nothing processed.
    package static func malformedHTTP(_ why: String) -> GatewayError {
        GatewayError(status: .badRequest, cause: .invalidRequest, explanation: "Malformed HTTP request: \(why)")
    }
}
