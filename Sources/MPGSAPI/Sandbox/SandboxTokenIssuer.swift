import ApplePaySandbox
import ApplePayToken
import Foundation
import GatewayCore
import WireJSON

/// Mints sandbox tokens for a configured merchant: signed by the sandbox authority (whose root
/// only a sandbox-mode gateway trusts) and encrypted to the merchant's own Apple Pay identity.
package struct SandboxTokenIssuer: Sendable {
    package let authority: SandboxAuthority
    /// Where the authority's files live, for the start-up line and the openssl recipe in Deploy/docs/testing.md.
    package let directory: String

    package init(
        authority: SandboxAuthority,
        directory: String
    ) {
        self.authority = authority
        self.directory = directory
    }

    /// A token as a device would make it, and what the caller needs to use it.
    package struct MintedToken: Sendable {
        /// The PKPaymentToken paymentData JSON, ready for `devicePayment.paymentToken`.
        package var paymentToken: String
        var version: String
        var transactionIdentifier: [UInt8]
        var signingTime: Date
        var applicationData: [UInt8]?

        var json: JSONValue {
            var fields: [String: JSONValue] = [
                "paymentToken": .string(paymentToken),
                "version": .string(version),
                "transactionIdentifier": .string(Hex.encode(transactionIdentifier)),
                "signingTime": .string(ISO8601DateFormatter().string(from: signingTime)),
            ]
            if let applicationData {
                // The form the gateway reads it back in: devicePayment.applicationData.
                fields["applicationData"] = .string(Data(applicationData).base64EncodedString())
            }
            return .object(fields)
        }
    }

    package func mint(_ options: SandboxTokenOptions, for merchant: Merchant, now: Date) throws(GatewayError) -> MintedToken {
        var request = try options.mintRequest(now: now)
        let versionName = request.version == .ecV1 ? "EC_v1" : "RSA_v1"
        guard let identity = Self.identity(for: request.version, in: merchant) else {
            throw GatewayError.invalidValue(
                "version",
                versionName,
                "Merchant '\(merchant.id)' has no \(request.version == .ecV1 ? "EC" : "RSA") Apple Pay identity configured"
            )
        }
        let transactionIdentifier = Bytes.random(count: 32)
        request.transactionId = transactionIdentifier
        let token: String
        do {
            token = try TokenMinter(authority: authority).mint(request, for: MintRecipient(identity: identity))
        } catch {
            throw GatewayError(status: .internalServerError, cause: .serverFailed, explanation: "The sandbox could not mint the token")
        }
        return MintedToken(
            paymentToken: token,
            version: versionName,
            transactionIdentifier: transactionIdentifier,
            signingTime: request.signingTime,
            applicationData: request.applicationData
        )
    }

    /// EC_v1 needs an EC identity and RSA_v1 an RSA one; the first configured wins.
    private static func identity(for version: MintRequest.Version, in merchant: Merchant) -> MerchantIdentity? {
        merchant.keyRing.identities.first { identity in
            switch (identity.privateKey, version) {
            case (.ec, .ecV1), (.rsa, .rsaV1): true
            default: false
            }
        }
    }
}
