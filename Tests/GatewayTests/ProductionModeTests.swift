import ApplePaySandbox
import Foundation
import GatewayConfigurationFile
import GatewayCore
import HummingbirdTesting
import Testing

@testable import Gateway
@testable import MPGSAPI

@Suite("Production mode trusts Apple alone")
struct ProductionModeTests {
    @Test("no sandbox root, no sandbox endpoint, and sandbox tokens are refused")
    func production() async throws {
        let gateway = try await TestGateway(mode: .production)
        #expect(gateway.services.sandboxIssuer == nil)
        #expect(gateway.services.decryptor.trustRoots.isAppleOnly)
        #expect(gateway.services.trustDescription == "trusting Apple Root CA - G3 alone")
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        try await gateway.application.test(.router) { client in
            let mint = try await client.send(
                SandboxTokenEndpointTests.mintPath,
                method: .post,
                body: TestGateway.json(["amount": "56.56", "currency": "USD"])
            )
            #expect(mint.status == .notFound)
            let payment = try await client.put(
                TestGateway.path(order: "production", transaction: "1"),
                TestGateway.tokenBody(token, amount: "56.56")
            )
            #expect(payment.status == .badRequest)
            #expect(payment.string("error.explanation")?.contains("CHAIN") == true, "\(payment.body)")
        }
    }

    @Test("sandbox mode trusts the sandbox root too, and says so")
    func sandbox() async throws {
        let gateway = try await TestGateway()
        #expect(!gateway.services.decryptor.trustRoots.isAppleOnly)
        #expect(gateway.services.decryptor.trustRoots.certificates.contains(TestGateway.authority.root))
        #expect(gateway.services.trustDescription.hasPrefix("trusting Apple Root CA - G3, the sandbox root in "))
    }

    @Test("a configuration file means production unless it says sandbox, and production refuses extra roots")
    func configurationFile() async throws {
        let merchant = #""merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"]}}"#
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mode-\(UUID().uuidString).json").path
        try "{\(merchant)}".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try await GatewayService.loadConfiguration(.init(configFile: path), environment: [:]).mode == .production)
        #expect(try await GatewayService.loadConfiguration(.init(), environment: [:]).mode == .sandbox)

        try "{\(merchant), \"applePay\": {\"trustRoots\": [\"/tmp/root.pem\"]}}".write(toFile: path, atomically: true, encoding: .utf8)
        await #expect {
            try await GatewayService.loadConfiguration(.init(configFile: path), environment: [:])
        } throws: { error in
            (error as? ConfigurationError)?.key == "applePay.trustRoots"
        }
        let sandbox = try await GatewayService.loadConfiguration(
            .init(configFile: path),
            environment: ["GATEWAY_MODE": "sandbox"]
        )
        #expect(sandbox.trustRootPaths == ["/tmp/root.pem"])
    }
}
