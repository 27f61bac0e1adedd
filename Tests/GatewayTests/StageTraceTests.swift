import Foundation
import GatewayConfigurationFile
import GatewayCore
import HummingbirdTesting
import Testing

@testable import Gateway
@testable import GatewayObservability

/// `log.stageTrace`: one line per request answered over a real socket, with when it passed each
/// stage, for scripts/bench-stages to place a latency tail.
@Suite("Stage trace")
struct StageTraceTests {
    @Test("a token AUTHORIZE leaves its path and its stages in order; a request without a record leaves 0 for the commit")
    func tracesStages() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-\(UUID().uuidString)")
        let tracePath = directory.appendingPathComponent("stages.txt").path
        let gateway = try await TestGateway(directory: directory, stageTracePath: tracePath)
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        try await gateway.application.test(.live) { client in
            let paid = try await client.put(TestGateway.path(order: "stage-1", transaction: "1"), TestGateway.tokenBody(token, amount: "56.56"))
            #expect(paid.status == .created, "\(paid.body)")
            let information = try await client.send("/api/rest/version/100/information", method: .get, authorization: nil)
            #expect(information.status == .ok)
            // A card number in an order id is masked in the trace, as in the log.
            let carded = try await client.put(TestGateway.path(order: "5123450000000008", transaction: "1"), Data("{}".utf8))
            #expect(carded.status == .badRequest)
        }
        let text = try String(contentsOfFile: tracePath, encoding: .utf8)
        #expect(!text.contains("5123450000000008"))
        #expect(text.contains("/order/512345"))
        let lines = text.split(separator: "\n").map { $0.split(separator: " ") }
        #expect(lines.count == 3)
        let authorize = try #require(lines.first { $0.first?.hasSuffix("/order/stage-1/transaction/1") == true })
        #expect(authorize.count == 7)
        let times = authorize.dropFirst().prefix(5).compactMap { UInt64($0) }
        #expect(times.count == 5)
        #expect(times.allSatisfy { $0 > 0 })
        // read <= submitted <= commit started <= committed <= answered
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(authorize)")
        #expect(Int(authorize[6]) == 1)
        // A commit takes an fsync: more than nothing, and the whole request longer still.
        #expect(times[3] > times[2])
        let other = try #require(lines.first { $0.first == "/api/rest/version/100/information" })
        #expect(other.count == 7)
        #expect(other[2...4].allSatisfy { $0 == "0" } && other[6] == "0")
        #expect(UInt64(other[5])! >= UInt64(other[1])!)
    }

    @Test("log.stageTrace is read from GATEWAY_LOG_STAGE_TRACE; a file that cannot be opened is refused naming the key")
    func configuration() async throws {
        #expect(try await GatewayService.loadConfiguration(.init(), environment: [:]).stageTracePath == nil)
        let set = try await GatewayService.loadConfiguration(.init(), environment: ["GATEWAY_LOG_STAGE_TRACE": "/tmp/x.txt"])
        #expect(set.stageTracePath == "/tmp/x.txt")
        let unwritable = try await GatewayService.loadConfiguration(
            .init(),
            environment: ["GATEWAY_LOG_STAGE_TRACE": "/nonexistent-\(UUID().uuidString)/stages.txt"]
        )
        #expect {
            try GatewayDependencies(configuration: unwritable, store: NoStore())
        } throws: { ($0 as? ConfigurationError)?.key == "log.stageTrace" }
    }
}
