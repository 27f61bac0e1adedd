import GatewayHTTP
import Hummingbird

extension SessionRoutes {
    /// Update Session answered so that a page on any origin can read it, refusals included. No
    /// cookie is involved: the credential is the `Authorization` header the page sets (the
    /// session id, which opens that session only).
    static func crossOrigin(
        _ request: Request,
        _ context: GatewayRequestContext,
        _ handler: (Request, GatewayRequestContext) async throws -> Response
    ) async -> Response {
        var response: Response
        do {
            response = try await handler(request, context)
        } catch {
            let refusal = GatewayError.refusal(for: error, logger: context.logger)
            response = (try? refusal.response(from: request, context: context)) ?? Response(status: .internalServerError)
        }
        response.headers[.accessControlAllowOrigin] = "*"
        return response
    }

    static var updatePreflight: Response {
        Response(
            status: .noContent,
            headers: [
                .accessControlAllowOrigin: "*", .accessControlAllowMethods: "PUT",
                .accessControlAllowHeaders: "Authorization, Content-Type", .accessControlMaxAge: "600",
            ]
        )
    }
}
