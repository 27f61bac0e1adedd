import ApplePayToken
import GatewayCore

/// `WalletPaymentInformation` reassembled into the Apple Pay token it was split from: Radial's
/// clients send `paymentData`'s parts as elements, the token library reads the token Apple
/// specifies. The parts go to the library as the token's text fields, so the same checks
/// (base64, hex, lengths, version) apply as to a token posted whole, with no JSON written and
/// parsed back, and a part it refuses is named by its element.
struct RadialWalletToken: Sendable {
    let token: PaymentToken
    /// Where the token's parts are in the request (`CreditCardAuthRequest/WalletPaymentInformation`).
    let path: String

    init(_ element: XMLElement, path: String) throws(RadialFault) {
        self.path = path
        let version = element.childText("Version") ?? ""
        // Seed 002 carries EphemeralPublicKey only: an RSA_v1 token's wrappedKey has no element.
        guard version == PaymentToken.Version.ecV1.rawValue else {
            let rejection = TokenRejection.library(
                code: .unsupportedVersion,
                reason: "only EC_v1 tokens can be sent as WalletPaymentInformation"
            )
            throw RadialFault(
                .tokenRejected,
                element: "\(path)/Version",
                "\(rejection.code): \(rejection.reason)",
                tokenRejection: rejection
            )
        }
        func part(_ name: String) -> String {
            (element.childText(name) ?? "").filter { !$0.isWhitespace }
        }
        let fields = PaymentToken.TextFields(
            version: version,
            data: part("Data"),
            signature: part("Signature"),
            header: .init(
                ephemeralPublicKey: part("EphemeralPublicKey"),
                publicKeyHash: part("PublicKeyHash"),
                transactionId: part("ApplePayTransactionId")
            )
        )
        do {
            token = try PaymentToken(fields: fields)
        } catch {
            throw RadialFault(
                .tokenRejected,
                element: Self.element(forTokenField: error.field, path: path),
                "\(error.code): \(error.reason)",
                tokenRejection: TokenRejection(error)
            )
        }
    }

    /// The element holding a token field the library names (`header.publicKeyHash` is `PublicKeyHash`).
    static func element(forTokenField field: String?, path: String) -> String {
        switch field {
        case "version": "\(path)/Version"
        case "data": "\(path)/Data"
        case "signature": "\(path)/Signature"
        case "header.ephemeralPublicKey": "\(path)/EphemeralPublicKey"
        case "header.publicKeyHash": "\(path)/PublicKeyHash"
        case "header.transactionId": "\(path)/ApplePayTransactionId"
        default: path
        }
    }
}
