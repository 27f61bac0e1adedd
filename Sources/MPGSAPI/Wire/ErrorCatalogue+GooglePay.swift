import GatewayCore
import GooglePayToken

extension ErrorCatalogue {
    /// The Google Pay token library's codes, then the gateway's own Google Pay checks.
    static var googlePayTokenEntries: [Entry] {
        let library = GooglePayTokenError.Code.allCases.map { code in
            let advice = googlePayLibraryAdvice[code.rawValue] ?? ("", "")
            return Entry(
                name: code.rawValue,
                error: TokenRejection.googlePay(code: code, reason: "(the library's reason)").entryError,
                when: advice.when,
                whatToDo: advice.whatToDo
            )
        }
        return library + GooglePayTokenKind.allCases.map(\.entry)
    }

    /// When each Google Pay library code happens and what to do (every code must have one: tested).
    static let googlePayLibraryAdvice: [String: (when: String, whatToDo: String)] = [
        "MALFORMED_TOKEN": (
            "The token is not Google's PaymentMethodToken JSON: a field is missing or unknown, has the wrong type, or bad base64.",
            "Send `paymentMethodData.tokenizationData.token` unchanged, as a JSON string."
        ),
        "UNSUPPORTED_VERSION": (
            "`protocolVersion` is not ECv2, ECv1 or ECv2SigningOnly.",
            "Check the token is a Google Pay payment method token, not another wallet's."
        ),
        "NO_USABLE_ROOT_KEY": (
            "No trusted root signing key is for the token's protocol version and unexpired.",
            "Update `googlePay.rootKeys` from Google's keys.json for the environment."
        ),
        "UNTRUSTED_INTERMEDIATE_KEY": (
            "The intermediate signing key is not signed by a trusted root: a token from the other Google environment, or altered.",
            "Test-environment tokens work only against a sandbox gateway; send the token unchanged."
        ),
        "INTERMEDIATE_KEY_EXPIRED": ("The intermediate signing key's keyExpiration has passed.", "Ask the payer to pay again for a new token."),
        "MESSAGE_SIGNATURE_INVALID": (
            "The message signature does not verify for the merchant's recipient id (`gateway:` and `merchant.<ID>.googlePay.gatewayId`).",
            "Set `gateway` in the page's tokenizationSpecification to the gateway id configured here; send the token unchanged."
        ),
        "TAG_MISMATCH": (
            "No configured private key opens the message: it was encrypted for another key, or altered.",
            "Configure the private key whose public key Google encrypts to (`merchant.<ID>.googlePay.privateKeys`)."
        ),
        "DECRYPTION_FAILED": ("The key agreement or the decryption failed.", "Send the token unchanged; check the configured key."),
        "MALFORMED_MESSAGE": (
            "The decrypted message is not Google's format (PAN, expiry month and year, CRYPTOGRAM_3DS with its cryptogram).",
            "Report it with the time of the payment: a genuine Google token never does this."
        ),
        "UNSUPPORTED_PAYMENT_METHOD": (
            "The message is for a payment method or authentication method the gateway does not know (only CARD, PAN_ONLY and CRYPTOGRAM_3DS).",
            "Ask Google Pay for CARD with PAN_ONLY or CRYPTOGRAM_3DS (allowedAuthMethods)."
        ),
        "MESSAGE_EXPIRED": ("The message's messageExpiration has passed.", "Authorize soon after the payer approves; check the server's clock."),
        "INVALID_KEY_MATERIAL": ("A root signing key or a private key could not be loaded.", "Fix the key files named in the configuration."),
    ]
}

/// The gateway's own Google Pay checks, one per Google Pay `TokenRejection` case but the library's.
enum GooglePayTokenKind: CaseIterable {
    case notEnabled, gatewayMerchantMismatch, replayed

    var entry: ErrorCatalogue.Entry {
        let (example, when, whatToDo) = described
        return ErrorCatalogue.Entry(name: example.code, error: example.entryError, when: when, whatToDo: whatToDo)
    }

    private var described: (example: TokenRejection, when: String, whatToDo: String) {
        switch self {
        case .notEnabled:
            (
                .googlePayNotEnabled, "A Google Pay token for a merchant without a Google Pay key.",
                "Configure `merchant.<ID>.googlePay.privateKeys` for the merchant."
            )
        case .gatewayMerchantMismatch:
            (
                .gatewayMerchantMismatch("OTHERMERCHANT"),
                "The message's gatewayMerchantId (from the page's tokenizationSpecification) names another merchant.",
                "Set `gatewayMerchantId` to the merchant id the payment is made for."
            )
        case .replayed:
            (
                .googlePayReplayed, "A message with this messageId was already processed (by any replica, through any API).",
                "Ask the customer to pay again: every payment needs a new token."
            )
        }
    }
}
