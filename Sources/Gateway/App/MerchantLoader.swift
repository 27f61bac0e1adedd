import ApplePayToken
import Crypto
import Foundation
import GatewayConfigurationFile
import GatewayCore
import GooglePayToken
import X509

/// Turns merchant settings into merchants: reads each Apple Pay identity's and Google Pay key's
/// material.
enum MerchantLoader {
    static func load(_ settings: GatewayConfiguration.MerchantSettings) throws(ConfigurationError) -> Merchant {
        var identities: [MerchantIdentity] = []
        for identity in settings.identities {
            identities.append(try load(identity, key: "merchant.\(settings.id).applePay.\(identity.name)"))
        }
        var merchant = Merchant(
            id: settings.id,
            apiPasswords: settings.apiPasswords,
            keyRing: MerchantKeyRing(identities),
            acquirer: SimulatedAcquirer(amountMatching: settings.amountMatching, testCards: settings.testCards),
            tokens: settings.tokens
        )
        if let googlePay = settings.googlePay {
            merchant.googlePay = try loadGooglePay(googlePay, key: "merchant.\(settings.id).googlePay.privateKeys")
        }
        // The risk rules match amounts as the merchant's acquirer simulator does.
        if settings.risk { merchant.risk = RiskScreening(amountMatching: settings.amountMatching) }
        return merchant
    }

    private static func loadGooglePay(_ settings: GooglePaySettings, key: String) throws(ConfigurationError) -> GooglePayRecipient {
        var privateKeys: [P256.KeyAgreement.PrivateKey] = []
        for (index, path) in settings.privateKeyPaths.enumerated() {
            let text = String(decoding: try read(path, key: "\(key)[\(index)]"), as: UTF8.self)
            do {
                privateKeys.append(try GooglePayRecipient.privateKey(from: text))
            } catch {
                throw ConfigurationError(key: "\(key)[\(index)]", problem: "names \(path), which cannot be used: \(error.reason)")
            }
        }
        return .gateway(settings.gatewayId, privateKeys: privateKeys)
    }

    private static func load(
        _ identity: GatewayConfiguration.IdentitySettings,
        key: String
    ) throws(ConfigurationError)
        -> MerchantIdentity
    {
        let keyBytes = try read(identity.privateKeyPath, key: "\(key).privateKey")
        do {
            var privateKey: MerchantIdentity.PrivateKey
            var certificate: Certificate?
            if KeyMaterial.isPKCS12(keyBytes) {
                let bundle = try KeyMaterial.pkcs12(keyBytes, password: identity.pkcs12Password ?? "")
                privateKey = bundle.privateKey
                certificate = bundle.certificate
            } else {
                privateKey = try KeyMaterial.privateKey(from: keyBytes)
            }
            if let path = identity.certificatePath {
                certificate = try KeyMaterial.certificate(from: read(path, key: "\(key).certificate"))
            }
            if let certificate {
                return try MerchantIdentity(certificate: certificate, privateKey: privateKey)
            }
            guard let merchantIdentifier = identity.merchantIdentifier else {
                throw ConfigurationError(key: "\(key).certificate", problem: "is needed: the key has no certificate")
            }
            return MerchantIdentity(merchantIdentifier: merchantIdentifier, privateKey: privateKey)
        } catch let error as ApplePayTokenError {
            throw ConfigurationError(key: "\(key).privateKey", problem: "cannot be used: \(error.reason)")
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError(key: "\(key).privateKey", problem: "cannot be used")
        }
    }

    static func read(_ path: String, key: String) throws(ConfigurationError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            // A relative path is read from the working directory, not beside the configuration file.
            let relative =
                path.hasPrefix("/")
                ? ""
                : " (relative paths are read from the working directory, "
                    + "\(FileManager.default.currentDirectoryPath))"
            let why = FileManager.default.fileExists(atPath: path) ? "cannot be read (check its permissions)" : "does not exist"
            throw ConfigurationError(key: key, problem: "names \(path), which \(why)\(relative)")
        }
        return Array(data)
    }
}
