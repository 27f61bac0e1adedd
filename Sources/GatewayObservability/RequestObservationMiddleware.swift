import Dispatch
import Foundation
import GatewayHTTP
import HTTPTypes
import Hummingbird
import Logging

/// Observes every request once: gives it an id (the client's `X-Request-ID` when it is well
/// formed, else Hummingbird's), puts the id on the request's logger and the response, then, with
/// one clock reading and the final status, counts and times it by method, route template and
/// status, and logs one line: method, route, status, duration, and the merchant, order and
/// transaction ids from the path. Never the raw path in a metric (it holds order ids), never
/// headers or bodies in a log. Runs outside the MPGS error middleware, so it sees final statuses.
/// Not generic over the context: from a module of its own a generic middleware would run
/// unspecialized on every request.
package struct RequestObservationMiddleware: RouterMiddleware {
    package typealias Context = GatewayRequestContext
    static var requestIdHeader: HTTPField.Name { HTTPField.Name("X-Request-ID")! }

    let metrics: GatewayMetrics

    package init(metrics: GatewayMetrics) {
        self.metrics = metrics
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        // Hummingbird's id (a counter under a random prefix) is unique and far cheaper than a UUID.
        // Made here, not by the channel (as Hummingbird's application does, under `hb.request.id`),
        // so a request's logger gets its metadata once.
        let requestId = Self.clientRequestId(request.headers[Self.requestIdHeader]) ?? RequestID().description
        var context = context
        context.logger[metadataKey: "requestId"] = .string(requestId)
        let counted = request.uri.path != "/metrics"
        if counted { metrics.requestStarted() }
        defer { if counted { metrics.requestEnded() } }
        do {
            var response = try await next(request, context)
            response.headers[Self.requestIdHeader] = requestId
            observe(request, context, status: response.status.code, start: start)
            return response
        } catch {
            observe(request, context, status: (error as? any HTTPResponseError)?.status.code ?? 500, start: start)
            throw error
        }
    }

    private func observe(_ request: Request, _ context: Context, status: Int, start: UInt64) {
        let nanoseconds = elapsedNanoseconds(since: start)
        let route = context.routeTemplate
        let method = knownMethods.contains(request.method) ? request.method.rawValue : "OTHER"
        metrics.request(method: method, route: route, status: status, nanoseconds: nanoseconds)

        // Probes and scrapes come every few seconds; they only show when debugging.
        let level: Logger.Level = route.hasPrefix("/api/") || route == "unmatched" ? .info : .debug
        guard context.logger.logLevel <= level else { return }
        var metadata: Logger.Metadata = [
            "method": "\(method)", "route": "\(route)", "status": "\(status)",
            "durationMs": "\(Double(nanoseconds / 1000) / 1000)",
        ]
        for (parameter, key) in [("merchantId", "merchant"), ("orderId", "orderId"), ("transactionId", "transactionId")] {
            // Decoded first, so the log handler's card-number mask sees what the client meant.
            if let value = context.parameters.get(parameter) {
                metadata[key] = "\((value.removingPercentEncoding ?? String(value)).prefix(64))"
            }
        }
        context.logger.log(level: level, "request completed", metadata: metadata)
    }

    /// The client's id when it is 1 to 64 letters, digits, `.`, `_` or `-`.
    static func clientRequestId(_ header: String?) -> String? {
        guard let header, (1...64).contains(header.utf8.count),
            header.utf8.allSatisfy({ $0.isASCIILetterOrDigit || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") })
        else { return nil }
        return header
    }
}

/// Clients may send any method token; the metric label takes a bounded set.
private let knownMethods: Set<HTTPRequest.Method> = [.get, .head, .put, .post, .delete, .options, .patch]

extension RequestContext {
    /// The matched route's template, or `unmatched` (Hummingbird names unmatched paths "NotFound").
    var routeTemplate: String {
        guard let path = endpointPath, path != "NotFound" else { return "unmatched" }
        return path
    }
}

extension UInt8 {
    fileprivate var isASCIILetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
