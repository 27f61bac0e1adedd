import GatewayCore
import Logging
import WireJSON

extension HostedCheckoutPayments {
    /// Apple Pay on the page: the payment sheet's `payment.token.paymentData`, paid as the API
    /// pays a device payment (`order.walletProvider` APPLE_PAY, the token as a JSON string in
    /// `devicePayment.paymentToken`), so it is verified and decrypted exactly as there. With
    /// operation NONE the token goes into the session for the merchant to pay with.
    package func payWithApplePay(_ checkout: Checkout, paymentData: JSONValue, logger: Logger) async throws -> Outcome {
        if checkout.settings.hasTimedOut(at: routes.sessions.clock()) { return .timedOut }
        // Said in words here; the session's own rule refuses the update anyway.
        if checkout.session.stored.isHeldByPayment { return .retry(message: Self.beingPaid) }
        guard case .object = paymentData else {
            throw GatewayError.invalid("paymentData", "paymentData must be the Apple Pay payment token's paymentData object")
        }
        let wallet: JSONValue = .object([
            "order": .object(["walletProvider": .string("APPLE_PAY")]),
            "sourceOfFunds": .object([
                "type": .string("CARD"),
                "provided": .object([
                    "card": .object([
                        "devicePayment": .object(["paymentToken": .string(String(decoding: paymentData.serialized(), as: UTF8.self))])
                    ])
                ]),
            ]),
        ])
        guard let operation = checkout.settings.operation.paymentOperation else {
            try SessionContent.validate(SessionContent.merged(checkout.session.content, wallet))
            let updated = try await routes.sessions.update(checkout.session, with: wallet)
            return .completed(resultIndicator: checkout.settings.successIndicator, sessionVersion: updated.stored.version, succeeded: true)
        }
        return try await pay(checkout, operation: operation, authenticationId: nil, extra: wallet, logger: logger)
    }
}
