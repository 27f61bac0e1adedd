import GatewayConfigurationFile
import GatewayCore

/// `merchant.<ID>.googlePay.*`: whom Google signs the merchant's tokens for, and the keys they are
/// encrypted to.
package struct GooglePaySettings: Sendable {
    /// The gateway id of `gateway:<id>`, the recipient Google signs for: what the merchant's page
    /// names as `gateway` in its tokenizationSpecification.
    package var gatewayId: String
    /// PEM or base64 PKCS#8 P-256 private keys, newest first; two or more during a rotation.
    package var privateKeyPaths: [String]

    /// Google Pay's gateway value for this API (the MPGS gateways').
    package static let defaultGatewayId = "mpgs"
}

extension GatewayConfiguration {
    /// The merchant's Google Pay settings; nil when it has no private keys (no Google Pay).
    static func googlePay(_ merchantId: String, _ values: ConfigValues) throws(ConfigurationError) -> GooglePaySettings? {
        let prefix = "merchant.\(merchantId).googlePay"
        let gatewayId = try values.string("\(prefix).gatewayId")
        guard let paths = try values.stringArray("\(prefix).privateKeys"), !paths.isEmpty else {
            if gatewayId != nil {
                throw ConfigurationError(key: "\(prefix).privateKeys", problem: "is missing: a gateway id without a key decrypts nothing")
            }
            return nil
        }
        if let gatewayId {
            guard (1...64).contains(gatewayId.count), gatewayId.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != ":" }) else {
                throw ConfigurationError(key: "\(prefix).gatewayId", problem: "must be 1-64 characters without spaces or ':'")
            }
        }
        return GooglePaySettings(gatewayId: gatewayId ?? GooglePaySettings.defaultGatewayId, privateKeyPaths: paths)
    }

    /// `googlePay.rootKeys` and `sandbox.googlePayDirectory`, read with the other global keys.
    mutating func readGooglePay(_ values: ConfigValues) throws(ConfigurationError) {
        if let path = try values.string("googlePay.rootKeys"), !path.isEmpty { googlePayRootKeysPath = path }
        googlePaySandboxDirectoryOverride = try values.string("sandbox.googlePayDirectory")
        // Production trusts Google's production keys, which this gateway cannot ship (they are
        // fetched from Google): without the file, the merchants' Google Pay is off, and the start-up
        // line says so, rather than refusing to start a gateway whose Apple Pay and cards work.
        if mode == .production, googlePayRootKeysPath == nil {
            for index in merchants.indices where merchants[index].googlePay != nil {
                merchants[index].googlePay = nil
                googlePayOffWithoutRootKeys.append(merchants[index].id)
            }
        }
    }
}
