import Foundation
import GatewayConfigurationFile
import Testing

@testable import Gateway
@testable import MPGSAPI
@testable import RadialAPI

@Suite("merchant.<ID>.radial.decrypt")
struct RadialConfigurationTests {
    private func load(_ merchant: String) async throws -> GatewayConfiguration {
        let file = #"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"]\#(merchant)}}}"#
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString).json").path
        try file.write(toFile: path, atomically: true, encoding: .utf8)
        return try await GatewayService.loadConfiguration(.init(configFile: path), environment: [:])
    }

    @Test("off unless granted; the sandbox defaults grant it to TESTMERCHANT")
    func defaults() async throws {
        #expect(try await load("").merchants[0].radialDecrypt == false)
        #expect(try await load(#", "radial": {"decrypt": "disabled"}"#).merchants[0].radialDecrypt == false)
        #expect(try await load(#", "radial": {"decrypt": "enabled"}"#).merchants[0].radialDecrypt == true)
        let sandbox = try await GatewayService.loadConfiguration(.init(configFile: nil), environment: [:])
        #expect(sandbox.merchants.first { $0.id == "TESTMERCHANT" }?.radialDecrypt == true)
    }

    @Test("another value or a misspelled key is refused, naming the key")
    func refused() async throws {
        for (merchant, key) in [
            (#", "radial": {"decrypt": "yes"}"#, "merchant.A.radial.decrypt"),
            (#", "radial": {"decrypt": true}"#, "merchant.A.radial.decrypt"),
            (#", "radial": {"decrpyt": "enabled"}"#, "merchant.A.radial.decrpyt"),
        ] {
            await #expect {
                try await load(merchant)
            } throws: { error in
                (error as? ConfigurationError)?.key == key
            }
        }
    }
}
