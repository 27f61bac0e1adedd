import Foundation
import GatewayCore
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import Gateway

/// Issue 64: a browser payment confirmed at the merchant notifies as any recorded transaction
/// does: the payer's approval (the payment pending) queues the order's notification, the
/// confirmation (the payment complete) another; a refused confirmation none. Production mode
/// confirms nothing.
@Suite("Browser payments confirmed at the merchant: notifications and production mode")
struct BrowserPaymentConfirmNotificationTests {
    static let initiate = Data(
        #"{"apiOperation":"INITIATE_BROWSER_PAYMENT","browserPayment":{"operation":"PAY","returnUrl":"https://merchant.example/return","paypal":{"paymentConfirmation":"CONFIRM_AT_MERCHANT"}},"order":{"amount":"25.00","currency":"USD","notificationUrl":"http://127.0.0.1:9/notify"},"sourceOfFunds":{"type":"BROWSER_PAYMENT","browserPayment":{"type":"PAYPAL"}}}"#
            .utf8
    )
    static let confirm = Data(#"{"apiOperation":"CONFIRM_BROWSER_PAYMENT"}"#.utf8)

    @Test("the approval and the confirmation each queue the order's notification; a refused confirmation queues none")
    func confirmationNotifies() async throws {
        var services = try await TestGateway().services
        services.merchants[TestGateway.merchantId]?.notifications = MerchantNotifications(url: nil, secret: "whsec-0123456789abcdef")
        let outbox = try #require(services.outbox)
        @Sendable func queued() async throws -> [OutboxNotification] {
            try await outbox.notifications(merchantId: TestGateway.merchantId, status: nil, limit: 20).filter { $0.orderId == "bpc-notify" }
        }
        try await buildApplication(services, logger: Logger(label: "test")).test(.router) { client in
            let path = TestGateway.path(order: "bpc-notify", transaction: "t-1")
            let initiated = try await client.put(path, Self.initiate)
            #expect(initiated.status == .created)
            try await ConsoleBrowser(client).approveAtPayPal(initiated)
            let afterApproval = try await queued()
            #expect(afterApproval.count == 1)
            #expect(afterApproval.allSatisfy { $0.transactionId == "t-1" && $0.url == "http://127.0.0.1:9/notify" })

            let confirmed = try await client.put(path, Self.confirm)
            #expect(confirmed.status == .created)
            #expect(confirmed.string("response.gatewayCode") == "APPROVED")
            let afterConfirmation = try await queued()
            #expect(afterConfirmation.count == 2)
            #expect(afterConfirmation.allSatisfy { $0.transactionId == "t-1" && $0.url == "http://127.0.0.1:9/notify" })

            // The identical retry is the stored answer and queues nothing; another body is refused.
            let retried = try await client.put(path, Self.confirm)
            #expect(retried.status == .created)
            let refused = try await client.put(path, Data(#"{"apiOperation":"CONFIRM_BROWSER_PAYMENT","correlationId":"again"}"#.utf8))
            #expect(refused.status == .badRequest)
            #expect(try await queued().count == 2)
        }
    }

    @Test("production mode simulates no provider: CONFIRM_BROWSER_PAYMENT is unsupported")
    func production() async throws {
        let gateway = try await TestGateway(mode: .production)
        try await gateway.application.test(.router) { client in
            let confirmed = try await client.put(TestGateway.path(order: "bpc-production", transaction: "t-1"), Self.confirm)
            #expect(confirmed.status == .badRequest)
            #expect(confirmed.string("error.field") == "apiOperation")
            #expect(confirmed.string("error.validationType") == "UNSUPPORTED")
        }
    }
}
