import Foundation
import GatewayCore
import Testing

@testable import Gateway

/// `merchant.<ID>.tokens.*` is read as written, and defaults to the sandbox's repository (wrong
/// values: ConfigurationTests).
@Suite("Token repository configuration")
struct TokenConfigurationTests {
    func load(_ tokens: String) async throws -> GatewayConfiguration {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString).json").path
        try #"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"]\#(tokens)}}}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        return try await GatewayService.loadConfiguration(.init(configFile: path), environment: [:])
    }

    @Test("the keys are read, and each is optional")
    func read() async throws {
        let configured = try await load(
            #", "tokens": {"format": "preserveSixFour", "verificationStrategy": "acquirer", "repositoryId": "REPO_7"}"#
        )
        #expect(configured.merchants[0].tokens == TokenRepository(id: "REPO_7", format: .preserveSixFour, verificationStrategy: .acquirer))
        let defaulted = try await load("")
        let merchant = try MerchantLoader.load(defaulted.merchants[0])
        #expect(merchant.tokens == TokenRepository(id: "A", format: .random, verificationStrategy: .basic))
        let none = try await load(#", "tokens": {"verificationStrategy": "none"}"#)
        #expect(none.merchants[0].tokens?.verificationStrategy == VerificationStrategy.none)
    }
}
