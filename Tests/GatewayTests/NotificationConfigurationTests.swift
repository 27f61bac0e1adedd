import Foundation
import GatewayConfigurationFile
import Testing

@testable import Gateway

/// `merchant.<ID>.notifications.*` and `notifications.*`: read as written, and each wrong value
/// stops start-up naming its key.
@Suite("Notification configuration")
struct NotificationConfigurationTests {
    func load(mode: String = "production", merchant: String = "", _ top: String = "") async throws -> GatewayConfiguration {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notifications-\(UUID().uuidString).json").path
        try #"{"mode": "\#(mode)", "merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"]\#(merchant)}}\#(top)}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        return try await GatewayService.loadConfiguration(.init(configFile: path), environment: [:])
    }

    func problem(mode: String = "production", merchant: String = "", _ top: String = "") async -> ConfigurationError? {
        do {
            _ = try await load(mode: mode, merchant: merchant, top)
            return nil
        } catch let error as ConfigurationError {
            return error
        } catch {
            return nil
        }
    }

    @Test("the keys are read; a production merchant without them has no notifications")
    func read() async throws {
        let configured = try await load(
            merchant: #", "notifications": {"url": "https://shop.example/hook", "secret": "a-secret-of-enough-length"}"#,
            #", "notifications": {"retryHorizonSeconds": 600, "initialRetrySeconds": 2, "maxRetrySeconds": 30, "allowedHosts": ["Hooks.Internal"], "timeoutSeconds": 3}"#
        )
        #expect(configured.merchants[0].notifications?.url == "https://shop.example/hook")
        #expect(configured.merchants[0].notifications?.secret == "a-secret-of-enough-length")
        #expect(configured.notifications.retry.horizon == 600 && configured.notifications.retry.initialDelay == 2)
        #expect(configured.notifications.retry.maxDelay == 30 && configured.notifications.timeoutSeconds == 3)
        #expect(configured.notifications.allowedHosts == ["hooks.internal"])
        #expect(configured.notifications.leaseSeconds > configured.notifications.timeoutSeconds)
        #expect(try await load().merchants[0].notifications == nil)
        // Sandbox: every merchant has notifications (a generated secret), URLs from orders.
        let sandbox = try await load(mode: "sandbox")
        #expect(sandbox.merchants[0].notifications != nil && sandbox.merchants[0].notifications?.secret == nil)
    }

    @Test("each wrong value names its key")
    func problems() async {
        let url = "merchant.A.notifications.url"
        let secret = "merchant.A.notifications.secret"
        #expect(
            await problem(merchant: #", "notifications": {"url": "http://shop.example/hook", "secret": "a-secret-of-enough-length"}"#)?.key == url
        )
        #expect(await problem(merchant: #", "notifications": {"url": "hook", "secret": "a-secret-of-enough-length"}"#)?.key == url)
        #expect(await problem(merchant: #", "notifications": {"url": "https://shop.example/hook"}"#)?.key == secret)
        #expect(await problem(merchant: #", "notifications": {"url": "https://shop.example/hook", "secret": "short"}"#)?.key == secret)
        #expect(await problem(#", "notifications": {"retryHorizonSeconds": 0}"#)?.key == "notifications.retryHorizonSeconds")
        #expect(await problem(#", "notifications": {"concurrency": 1000}"#)?.key == "notifications.concurrency")
        #expect(await problem(#", "notifications": {"retries": 3}"#)?.key.hasPrefix("notifications") == true)
        // Sandbox takes a plain http URL (a receiver on the developer's machine).
        #expect(await problem(mode: "sandbox", merchant: #", "notifications": {"url": "http://127.0.0.1:9/hook"}"#) == nil)
    }
}
