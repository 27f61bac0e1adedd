import Foundation
import GatewayCore
import HummingbirdTesting
import Testing

@testable import Gateway
@testable import MPGSAPI

/// RFC 8259 leaves a repeated key's meaning open: a client library and the gateway could each
/// read another copy (an amount, a card number). The gateway refuses the request instead.
@Suite("Repeated JSON keys")
struct DuplicateKeyTests {
    @Test("a request that repeats a key gets 400 naming it, over TCP, and nothing is recorded")
    func repeatedKeyInRequest() async throws {
        let gateway = try await TestGateway()
        let body = #"""
            {"apiOperation":"PAY","order":{"amount":"10.00","currency":"USD","amount":"1000.00"},
             "sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"}}}}}
            """#
        try await gateway.application.test(.live) { client in
            let exchange = try await client.put(TestGateway.path(order: "dup-1", transaction: "1"), Data(body.utf8))
            #expect(exchange.status == .badRequest)
            #expect(exchange.string("error.explanation")?.contains("repeats the key 'amount'") == true, "\(exchange.body)")
            #expect(try await gateway.services.store.order(merchantId: TestGateway.merchantId, orderId: "dup-1") == nil)
        }
    }
}
