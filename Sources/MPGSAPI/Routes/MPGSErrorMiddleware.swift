import ApplePayToken
import GatewayCore
import GatewayHTTP
import Hummingbird
import Logging

/// Turns every error into an MPGS error body: client errors as they are, routing errors as MPGS
/// 404s, anything unexpected as SERVER_FAILED with a support code that is also logged.
package struct MPGSErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    package init() {}

    package func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            return try GatewayError.refusal(for: error, logger: context.logger).response(from: request, context: context)
        }
    }
}

extension GatewayError {
    /// Any error as the MPGS error a client gets: client errors as they are, routing errors as
    /// MPGS 404s and 405s, a store outage as SERVER_BUSY (logged at most once per cause every ten
    /// seconds), anything unexpected as SERVER_FAILED with a support code that is also logged.
    /// The one mapping for every MPGS-style answer: the API, Update Session's cross-origin
    /// answers, and the hosted pages and their scripts.
    package static func refusal(for error: any Error, logger: Logger) -> GatewayError {
        switch error {
        case let error as GatewayError: return error
        case let refusal as MethodNotAllowed:
            var error = GatewayError(
                status: .methodNotAllowed,
                cause: .invalidRequest,
                explanation: "Method \(refusal.method.rawValue) is not allowed on this resource; use \(refusal.allow)"
            )
            error.allow = refusal.allow
            return error
        case let rejection as PaymentRejection: return rejection.gatewayError
        case let rejection as SessionRejection: return rejection.gatewayError
        case let rejection as CardTokenRejection: return rejection.gatewayError
        case let rejection as AuthenticationRejection: return rejection.gatewayError
        case let rejection as MerchantInitiatedRejection: return rejection.gatewayError
        case let error as HTTPError: return routing(error.status)
        case let error as StoreUnavailable:
            // The database is down, overloaded or cannot write: a retry later will do (retries are
            // idempotent).
            error.log(to: logger)
            return .serverBusy
        default:
            let supportCode = String(UInt64.random(in: 0..<UInt64.max), radix: 36).uppercased()
            logger.error("request failed", metadata: ["supportCode": "\(supportCode)", "error": "\(String(describing: error))"])
            return .serverFailed(supportCode: supportCode)
        }
    }

    /// What the page a person reads says: the explanation, with the support code when there is one.
    package var pageExplanation: String {
        supportCode.map { "\(explanation) Support code: \($0)." } ?? explanation
    }

    private static func routing(_ status: HTTPResponse.Status) -> GatewayError {
        switch status {
        case .notFound: .notFound()
        case .methodNotAllowed:
            GatewayError(status: .methodNotAllowed, cause: .invalidRequest, explanation: "Method not allowed on this resource")
        case .contentTooLarge:
            GatewayError(status: .contentTooLarge, cause: .invalidRequest, explanation: "The request body is too large")
        default:
            GatewayError(
                status: status,
                cause: status.code >= 500 ? .serverFailed : .invalidRequest,
                explanation: status.reasonPhrase
            )
        }
    }
}
