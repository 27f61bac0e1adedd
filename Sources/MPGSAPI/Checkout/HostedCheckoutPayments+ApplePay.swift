import GatewayCore
import Logging
import WireJSON

extension HostedCheckoutPayments {
    /// Apple Pay on the page: the payment sheet's `payment.token.paymentData`, paid as the API
    /// pays a device payment (`order.walletProvider` APPLE_PAY, the token as a JSON string in
    /// `devicePayment.paymentToken`), so it is verified and decrypted exactly as there. With
    /// operation NONE the token goes into the session for the merchant to pay with.
    package func payWithApplePay(_ checkout: Checkout, paymentData: JSONValue, logger: Logger) async throws -> Outcome {
        guard case .object = paymentData else {
            throw GatewayError.invalid("paymentData", "paymentData must be the Apple Pay payment token's paymentData object")
        }
        return try await payWithWallet(
            checkout,
            walletProvider: "APPLE_PAY",
            paymentToken: String(decoding: paymentData.serialized(), as: UTF8.self),
            logger: logger
        )
    }

    /// A wallet's token paid as the API pays it (`order.walletProvider`, the token in
    /// `devicePayment.paymentToken`), or with operation NONE put into the session.
    func payWithWallet(_ checkout: Checkout, walletProvider: String, paymentToken: String, logger: Logger) async throws -> Outcome {
        if checkout.settings.hasTimedOut(at: routes.sessions.clock()) { return .timedOut }
        // Said in words here; the session's own rule refuses the update anyway.
        if checkout.session.stored.isHeldByPayment { return .retry(message: Self.beingPaid) }
        let wallet: JSONValue = .object([
            "order": .object(["walletProvider": .string(walletProvider)]),
            "sourceOfFunds": .object([
                "type": .string("CARD"),
                "provided": .object(["card": .object(["devicePayment": .object(["paymentToken": .string(paymentToken)])])]),
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
