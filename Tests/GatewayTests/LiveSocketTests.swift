import Foundation
import GatewayCore
import HummingbirdTesting
import Testing

@testable import Gateway
@testable import MPGSAPI

@Suite("Through a real socket")
struct LiveSocketTests {
    @Test("AUTHORIZE with a token, a retry and a replay over TCP")
    func authorizeOverTCP() async throws {
        let gateway = try await TestGateway()
        let token = try TestGateway.mintToken(amountMinorUnits: 5656, version: .rsaV1)
        let body = TestGateway.tokenBody(token, amount: "56.56")
        try await gateway.application.test(.live) { client in
            let first = try await client.put(TestGateway.path(order: "live-1", transaction: "1"), body)
            #expect(first.status == .created)
            #expect(first.string("response.gatewayCode") == "APPROVED")
            let retry = try await client.put(TestGateway.path(order: "live-1", transaction: "1"), body)
            #expect(retry.body == first.body)
            let replay = try await client.put(TestGateway.path(order: "live-2", transaction: "1"), body)
            #expect(replay.status == .badRequest)
            let information = try await client.send("/api/rest/version/100/information", method: .get, authorization: nil)
            #expect(information.string("status") == "OPERATING")
        }
    }

    @Test("concurrent payments over many connections are all stored")
    func concurrentPayments() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let port = try #require(client.port)
            let results = try await ParallelHTTP.put(
                port: port,
                paths: (0..<24).map { TestGateway.path(order: "burst-\($0)", transaction: "1") }
            ) { index in TestGateway.cardBody(amount: "\(index + 1).00") }
            #expect(results.count == 24)
            #expect(results.allSatisfy { $0.status == 201 })
        }
        for index in 0..<24 {
            #expect(try await gateway.services.store.order(merchantId: TestGateway.merchantId, orderId: "burst-\(index)") != nil)
        }
    }
}
