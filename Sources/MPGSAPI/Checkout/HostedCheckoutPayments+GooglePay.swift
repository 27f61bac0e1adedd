import GatewayCore
import Logging
import WireJSON

extension HostedCheckoutPayments {
    /// Google Pay on the page: `loadPaymentData`'s `paymentMethodData.tokenizationData.token`
    /// (the token JSON as a string), paid as the API pays it (`order.walletProvider` GOOGLE_PAY),
    /// so it is verified and decrypted exactly as there. With operation NONE the token goes into
    /// the session for the merchant to pay with.
    package func payWithGooglePay(_ checkout: Checkout, paymentToken: String, logger: Logger) async throws -> Outcome {
        guard case .object? = try? JSONValue(parsing: Array(paymentToken.utf8)) else {
            throw GatewayError.invalid(
                "paymentData.paymentMethodData.tokenizationData.token",
                "The Google Pay token must be the JSON string tokenizationData.token holds"
            )
        }
        return try await payWithWallet(checkout, walletProvider: "GOOGLE_PAY", paymentToken: paymentToken, logger: logger)
    }
}
