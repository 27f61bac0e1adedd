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
        } catch let error as GatewayError {
            return try error.response(from: request, context: context)
        } catch let refusal as MethodNotAllowed {
            var error = GatewayError(
                status: .methodNotAllowed,
                cause: .invalidRequest,
                explanation: "Method \(refusal.method.rawValue) is not allowed on this resource; use \(refusal.allow)"
            )
            error.allow = refusal.allow
            return try error.response(from: request, context: context)
        } catch let rejection as PaymentRejection {
            return try rejection.response(from: request, context: context)
        } catch let rejection as SessionRejection {
            return try rejection.response(from: request, context: context)
        } catch let rejection as CardTokenRejection {
            return try rejection.response(from: request, context: context)
        } catch let error as HTTPError {
            return try Self.gatewayError(for: error.status).response(from: request, context: context)
        } catch let error as StoreUnavailable {
            // The database is down, overloaded or cannot write: a retry later will do (retries are
            // idempotent). Logged at most once per cause every ten seconds.
            error.log(to: context.logger)
            return try GatewayError.serverBusy.response(from: request, context: context)
        } catch {
            let supportCode = String(UInt64.random(in: 0..<UInt64.max), radix: 36).uppercased()
            context.logger.error(
                "request failed",
                metadata: ["supportCode": "\(supportCode)", "error": "\(String(describing: error))"]
            )
            return try GatewayError.serverFailed(supportCode: supportCode).response(from: request, context: context)
        }
    }

    private static func gatewayError(for status: HTTPResponse.Status) -> GatewayError {
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
