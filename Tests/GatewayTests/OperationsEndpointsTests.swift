import Foundation
import GatewayCore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Gateway
@testable import GatewayObservability
@testable import MPGSAPI

/// `/healthz`, `/readyz` and `/metrics`: no merchant authentication, outside `/api/rest`.
@Suite("Operations endpoints")
struct OperationsEndpointsTests {
    static let transactionRoute = "/api/rest/version/{version}/merchant/{merchantId}/order/{orderId}/transaction/{transactionId}"

    @Test("liveness and readiness answer without credentials; readiness fails once the store is closed")
    func healthAndReadiness() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let health = try await client.send("/healthz", method: .get, authorization: nil)
            #expect(health.status == .ok)
            #expect(health.string("status") == "UP")
            let ready = try await client.send("/readyz", method: .get, authorization: nil)
            #expect(ready.status == .ok)
            #expect(ready.string("status") == "READY")
            #expect(ready.string("checks.store") == "UP")
            #expect(ready.string("checks.keys") == "UP")

            await gateway.services.store.close()
            let closed = try await client.send("/readyz", method: .get, authorization: nil)
            #expect(closed.status == .serviceUnavailable)
            #expect(closed.string("status") == "NOT_READY")
            #expect(closed.string("checks.store") == "DOWN")
            #expect(try await client.send("/healthz", method: .get, authorization: nil).status == .ok)
        }
    }

    @Test("the operations paths answer any method but GET with 405 and Allow: GET", arguments: ["/healthz", "/readyz", "/metrics"])
    func otherMethods(path: String) async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            for method in [HTTPRequest.Method.post, .delete, HTTPRequest.Method("QUERY")!] {
                let allow = try await client.execute(uri: path, method: method) { response in
                    #expect(response.status == .methodNotAllowed)
                    return response.headers[.allow]
                }
                #expect(allow == "GET")
            }
        }
    }

    @Test("metrics count requests by route template, transactions by gateway code, token failures by code")
    func metricsAfterTraffic() async throws {
        let gateway = try await TestGateway()
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        let mismatched = try TestGateway.mintToken(amountMinorUnits: 100)
        try await gateway.application.test(.live) { client in
            let path = { (order: String) in TestGateway.path(order: "metrics-order-\(order)", transaction: "1") }
            #expect(try await client.put(path("a"), TestGateway.cardBody(amount: "10.00")).status == .created)
            #expect(try await client.put(path("b"), TestGateway.cardBody(amount: "57.57")).status == .created)
            #expect(try await client.put(path("c"), TestGateway.tokenBody(token, amount: "56.56")).status == .created)
            #expect(try await client.put(path("d"), TestGateway.tokenBody(token, amount: "56.56")).status == .badRequest)
            #expect(try await client.put(path("e"), TestGateway.tokenBody(mismatched, amount: "2.00")).status == .badRequest)
            #expect(try await client.send("/nowhere/metrics-order-f", method: .get).status == .notFound)
            // Refused by the front end before the core sees it: a token that is not one.
            let unparsable = try await client.put(path("g"), TestGateway.tokenBody(#"{"version":"EC_v1"}"#, amount: "56.56"))
            #expect(unparsable.status == .badRequest)
            let explanation = unparsable.string("error.explanation") ?? ""
            let unparsableCode = try #require(explanation.split(separator: ":").dropFirst().first).trimmingCharacters(in: .whitespaces)

            let scrape = try await client.execute(uri: "/metrics", method: .get) { response in
                (response.status, response.headers[.contentType] ?? "", String(buffer: response.body))
            }
            #expect(scrape.0 == .ok)
            #expect(scrape.1.hasPrefix("text/plain"))
            let metrics = PrometheusSamples(scrape.2)
            let names = GatewayMetrics.Names.self

            #expect(metrics.value(names.requests, ["method": "PUT", "route": Self.transactionRoute, "status": "201"]) == 3)
            #expect(metrics.value(names.requests, ["method": "PUT", "route": Self.transactionRoute, "status": "400"]) == 3)
            #expect(metrics.value(names.requests, ["route": "unmatched", "status": "404"]) == 1)
            #expect(metrics.value(names.requestDuration + "_count", ["route": Self.transactionRoute]) == 6)
            #expect(metrics.value(names.transactions, ["operation": "PAY", "gateway_code": "APPROVED"]) == 1)
            #expect(metrics.value(names.transactions, ["operation": "PAY", "gateway_code": "DECLINED"]) == 1)
            #expect(metrics.value(names.transactions, ["operation": "AUTHORIZE", "gateway_code": "APPROVED"]) == 1)
            #expect(metrics.value(names.tokenFailures, ["code": "REPLAYED"]) == 1)
            #expect(metrics.value(names.tokenFailures, ["code": "AMOUNT_MISMATCH"]) == 1)
            #expect(metrics.value(names.tokenFailures, ["code": unparsableCode]) == 1, "\(explanation)")
            #expect(metrics.value(names.tokenFailures) == 3)
            // All three tokens verified and decrypted; the replay and mismatch fail after decryption.
            #expect(metrics.value(names.tokenDuration + "_count", ["outcome": "success"]) == 3)
            // One signing chain: verified once, then reused.
            #expect(metrics.value(names.chainCacheMisses) == 1)
            #expect(metrics.value(names.chainCacheHits) == 2)
            // Three recorded, and the replay, which the write itself refuses: no read before any
            // write. The one read is the mismatched token's, looking for a stored answer to a retry.
            #expect(metrics.value(names.storeDuration + "_count", ["operation": "record"]) == 4)
            #expect(metrics.value(names.storeDuration + "_count", ["operation": "transaction"]) == 1)
            #expect(metrics.value(names.storeDuration + "_count", ["operation": "replay_check"]) == 0)
            // Low cardinality: no order ids in any label.
            #expect(!scrape.2.contains("metrics-order-"))
        }
    }

    @Test("a well-formed X-Request-ID is kept, echoed and logged; a malformed one is replaced")
    func requestIds() async throws {
        let gateway = try await TestGateway()
        let logs = LogCollector()
        try await gateway.application(logger: logs.logger).test(.live) { client in
            let requestId = HTTPField.Name("X-Request-ID")!
            let kept = try await client.execute(
                uri: "/api/rest/version/100/information",
                method: .get,
                headers: [requestId: "client-id_42.a"]
            ) { $0.headers[requestId] }
            #expect(kept == "client-id_42.a")
            let replaced = try await client.execute(
                uri: "/api/rest/version/100/information",
                method: .get,
                headers: [requestId: "not a valid id {}"]
            ) { $0.headers[requestId] }
            #expect(replaced != nil && replaced != "not a valid id {}")
            let generated = try await client.execute(uri: "/healthz", method: .get) { $0.headers[requestId] }
            for id in [replaced, generated] {
                #expect(id.map { $0.count >= 17 && $0.allSatisfy(\.isHexDigit) } == true, "\(id ?? "none")")
            }
            #expect(generated != replaced, "two requests got the same id")
        }
        let lines = logs.all.filter { $0.contains("request completed") }
        #expect(
            lines.contains { $0.contains(#""requestId":"client-id_42.a""#) && $0.contains(#""route":"/api/rest/version/{version}/information""#) }
        )
        #expect(lines.allSatisfy { $0.hasSuffix("}\n") && !$0.dropLast().contains("\n") })
        #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) is [String: Any] })
    }
}
