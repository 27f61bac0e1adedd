import GatewayCore
import WireJSON

/// The Payment Options Inquiry response: the core's ``PaymentOptions`` in the reference's shape,
/// lists of one-member objects (`{"currency":"USD"}`) as the reference writes them.
struct PaymentOptionsResponse {
    var merchantId: String
    var options: PaymentOptions
    var transactionSources: [String]
    var version: APIVersion
    var correlationId: String?

    /// The reference's names for the payment operations (a PAY is a PURCHASE there).
    static func name(_ operation: PaymentRequest.Operation) -> String {
        switch operation {
        case .authorize: "AUTHORIZE"
        case .pay: "PURCHASE"
        case .verify: "VERIFY"
        }
    }

    var json: JSONValue {
        func list(_ key: String, _ values: [String]) -> JSONValue {
            .array(values.map { .object([key: .string($0)]) })
        }
        let schemes = list("name", options.threeDSecureVersions.map(\.rawValue))
        var card: [String: JSONValue] = [
            // No schemes, no field: a client reads an absent list as no 3-D Secure, as the reference's optional field allows.
            "cardTypes": .array(
                options.cardBrands.map {
                    .object(options.threeDSecureVersions.isEmpty ? ["cardType": .string($0)] : ["cardType": .string($0), "3DSecureSchemes": schemes])
                }
            ),
            "currencies": list("currency", options.currencies.map(\.code)),
            "transactionSources": list("transactionSource", transactionSources),
            "walletProviders": list("walletProvider", options.wallets.map(\.rawValue)),
        ]
        // Ours: the reference names no field for it that we could read; cards can be stored.
        card["tokenization"] = .string(options.hasTokenRepository ? "SUPPORTED" : "NOT_SUPPORTED")
        var body: [String: JSONValue] = [
            "merchant": .string(merchantId),
            "result": .string("SUCCESS"),
            "paymentTypes": .object(["card": .object(card)]),
            "supportedPaymentOperations": list("supportedPaymentOperation", options.operations.map(Self.name)),
        ]
        // Versions before 52 answered with one transaction mode instead of the operations.
        if version.number < 52 { body["transactionMode"] = .string("AUTHORIZE_CAPTURE") }
        if let correlationId { body["correlationId"] = .string(correlationId) }
        return .object(body)
    }
}
