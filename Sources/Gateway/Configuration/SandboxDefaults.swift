import Configuration
import Foundation
import GatewayConfigurationFile

/// The embedded defaults `gateway serve` runs with when no configuration file is given: sandbox
/// mode, merchant TESTMERCHANT with the test-only Apple Pay identities and Google Pay key under
/// Config/sandbox/.
enum SandboxDefaults {
    static let merchantId = "TESTMERCHANT"
    static let apiPassword = "00112233445566778899aabbccddeeff"

    static var provider: InMemoryProvider {
        InMemoryProvider(
            name: "sandbox defaults",
            values: [
                "mode": "sandbox",
                "merchants": .init(.stringArray([merchantId]), isSecret: false),
                "merchant.TESTMERCHANT.apiPasswords": .init(.stringArray([apiPassword]), isSecret: true),
                "merchant.TESTMERCHANT.applePay.identities": .init(.stringArray(["ec", "rsa"]), isSecret: false),
                "merchant.TESTMERCHANT.applePay.ec.privateKey": "Config/sandbox/merchant-ec-key.pem",
                "merchant.TESTMERCHANT.applePay.ec.certificate": "Config/sandbox/merchant-ec-cert.pem",
                "merchant.TESTMERCHANT.applePay.rsa.privateKey": "Config/sandbox/merchant-rsa-key.pem",
                "merchant.TESTMERCHANT.applePay.rsa.certificate": "Config/sandbox/merchant-rsa-cert.pem",
                "merchant.TESTMERCHANT.googlePay.privateKeys": .init(.stringArray(["Config/sandbox/google-pay-key.pem"]), isSecret: false),
                // The sandbox shows the Radial-style Decrypt; production merchants must be granted it.
                "merchant.TESTMERCHANT.radial.decrypt": "enabled",
            ]
        )
    }

    /// The defaults name their key files relative to the working directory: say so when they are
    /// not there, instead of a bare "cannot be read" for the first of them.
    static func checkKeyFiles(_ configuration: GatewayConfiguration) throws(ConfigurationError) {
        for merchant in configuration.merchants {
            for identity in merchant.identities where !FileManager.default.fileExists(atPath: identity.privateKeyPath) {
                throw ConfigurationError(
                    key: "merchant.\(merchant.id).applePay.\(identity.name).privateKey",
                    problem: "names \(identity.privateKeyPath), which is not under the working directory "
                        + "\(FileManager.default.currentDirectoryPath): the sandbox defaults read Config/sandbox/ there. "
                        + "Run from the repository root or pass --config"
                )
            }
        }
    }
}
