import Dispatch
import Hummingbird

/// Counts requests and times them by method, route template (never the raw path, which holds
/// order ids) and status. Runs outside the MPGS error middleware, so it sees the final status.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: GatewayMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        let status: Int
        do {
            let response = try await next(request, context)
            status = response.status.code
            record(request, context, status: status, start: start)
            return response
        } catch {
            record(request, context, status: (error as? any HTTPResponseError)?.status.code ?? 500, start: start)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, status: Int, start: UInt64) {
        metrics.request(
            method: knownMethods.contains(request.method) ? request.method.rawValue : "OTHER",
            route: context.routeTemplate,
            status: status,
            nanoseconds: elapsedNanoseconds(since: start)
        )
    }
}

extension RequestContext {
    /// The matched route's template, or `unmatched` (Hummingbird names unmatched paths "NotFound").
    var routeTemplate: String {
        guard let path = endpointPath, path != "NotFound" else { return "unmatched" }
        return path
    }
}

/// Clients may send any method token; the label takes a bounded set.
private let knownMethods: Set<HTTPRequest.Method> = [.get, .head, .put, .post, .delete, .options, .patch]
