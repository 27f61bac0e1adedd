import Foundation
import GatewayCore
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import Gateway

/// Issue 64: a browser payment notifies as any payment does (its transaction, recorded when the
/// payer decides, queues the notification `order.notificationUrl` names), and only sandbox mode
/// simulates the provider.
@Suite("Browser payments: notifications and production mode")
struct BrowserPaymentNotificationTests {
    @Test("the payer's decision queues the order's notification; the initiate alone queues none")
    func decisionNotifies() async throws {
        var services = try await TestGateway().services
        services.merchants[TestGateway.merchantId]?.notifications = MerchantNotifications(url: nil, secret: "whsec-0123456789abcdef")
        let outbox = try #require(services.outbox)
        try await buildApplication(services, logger: Logger(label: "test")).test(.router) { client in
            let initiated = try await client.put(
                TestGateway.path(order: "bp-notify", transaction: "t-1"),
                Data(
                    #"{"apiOperation":"INITIATE_BROWSER_PAYMENT","browserPayment":{"operation":"PAY","returnUrl":"https://merchant.example/return"},"order":{"amount":"25.00","currency":"USD","notificationUrl":"http://127.0.0.1:9/notify"},"sourceOfFunds":{"type":"BROWSER_PAYMENT","browserPayment":{"type":"PAYPAL"}}}"#
                        .utf8
                )
            )
            #expect(initiated.status == .created)
            let before = try await outbox.notifications(merchantId: TestGateway.merchantId, status: nil, limit: 10)
            #expect(!before.contains { $0.orderId == "bp-notify" })

            try await ConsoleBrowser(client).approveAtPayPal(initiated)
            let after = try await outbox.notifications(merchantId: TestGateway.merchantId, status: nil, limit: 10)
            #expect(after.contains { $0.orderId == "bp-notify" && $0.transactionId == "t-1" })
        }
    }

    @Test("production mode simulates no provider: INITIATE_BROWSER_PAYMENT is unsupported and the page is not served")
    func production() async throws {
        let gateway = try await TestGateway(mode: .production)
        try await gateway.application.test(.router) { client in
            let initiated = try await client.put(
                TestGateway.path(order: "bp-production", transaction: "t-1"),
                Data(
                    #"{"apiOperation":"INITIATE_BROWSER_PAYMENT","browserPayment":{"operation":"PAY","returnUrl":"https://merchant.example/return"},"order":{"amount":"25.00","currency":"USD"},"sourceOfFunds":{"type":"BROWSER_PAYMENT","browserPayment":{"type":"PAYPAL"}}}"#
                        .utf8
                )
            )
            #expect(initiated.status == .badRequest)
            #expect(initiated.string("error.field") == "apiOperation")
            #expect(initiated.string("error.validationType") == "UNSUPPORTED")
            let page = try await client.send("/browserPayment/paypal?interaction=AAAA", method: .get)
            #expect(page.status == .notFound)
        }
    }
}
