import ArgumentParser
import Foundation
import GooglePayToken

/// `gateway mint-token --wallet google-pay`'s own options.
struct GooglePayMintOptions: ParsableArguments {
    @Option(name: .long, help: "Google Pay: the recipient id to sign for (default gateway:<the merchant's googlePay.gatewayId, mpgs>).")
    var recipientId: String?

    @Option(
        name: .long,
        help: """
            Google Pay: the merchant's key to encrypt to: its public key (base64 of the point, as Google's console \
            takes it, or PEM / base64 DER), or its private key (PEM or base64 PKCS#8). Default: the merchant's \
            newest merchant.<ID>.googlePay.privateKeys.
            """
    )
    var publicKey: String?

    @Option(
        name: .long,
        help: "Google Pay: where the sandbox root's key and keys.json live, created on first use (default: sandbox.googlePayDirectory)."
    )
    var googleSandboxDirectory: String?

    @Option(name: .long, help: "Google Pay: PAN_ONLY, or CRYPTOGRAM_3DS (the default when --cryptogram is given).")
    var authMethod: String?

    @Option(name: .long, help: "Google Pay: the gatewayMerchantId the message carries (default: the merchant id).")
    var gatewayMerchantId: String?

    @Option(name: .long, help: "Google Pay: the messageId, the replay key (default: a new one).")
    var messageId: String?

    @Option(name: .long, help: "Google Pay: when the message expires, ISO 8601 (default an hour from now).")
    var messageExpiration: String?

    /// The options given, by their flags: none belongs on an Apple Pay token.
    var givenOptions: [String] {
        [
            ("--recipient-id", recipientId), ("--public-key", publicKey), ("--google-sandbox-directory", googleSandboxDirectory),
            ("--auth-method", authMethod), ("--gateway-merchant-id", gatewayMerchantId), ("--message-id", messageId),
            ("--message-expiration", messageExpiration),
        ].compactMap { $0.1 == nil ? nil : $0.0 }
    }

    /// Not `validate()`: ArgumentParser would call that for an Apple Pay token too.
    func validateForGooglePay() throws {
        if let authMethod, GooglePayMessage.AuthMethod(rawValue: authMethod) == nil {
            throw ValidationError("--auth-method must be PAN_ONLY or CRYPTOGRAM_3DS")
        }
        if let recipientId, !(recipientId.hasPrefix("gateway:") || recipientId.hasPrefix("merchant:")) {
            throw ValidationError("--recipient-id must be gateway:<gateway id> or merchant:<merchant id>")
        }
        if let messageExpiration, ISO8601.date(from: messageExpiration) == nil {
            throw ValidationError("--message-expiration must be an ISO 8601 time such as 2030-01-01T00:00:00Z")
        }
    }
}
