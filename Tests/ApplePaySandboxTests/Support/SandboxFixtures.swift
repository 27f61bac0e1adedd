import ApplePaySandbox
import ApplePayToken
import Crypto
import Foundation
import Testing

/// One authority and one EC and one RSA merchant for the whole run: RSA key generation is slow.
enum SandboxFixtures {
    static let merchantIdentifier = "merchant.com.example.sandbox"

    static let authority: SandboxAuthority = try! SandboxAuthority.generate()

    static let ecMerchant: SandboxMerchantIdentity = try! SandboxMerchantIdentity.generate(
        merchantIdentifier: merchantIdentifier,
        keyType: .ec,
        issuer: authority
    )

    static let rsaMerchant: SandboxMerchantIdentity = try! SandboxMerchantIdentity.generate(
        merchantIdentifier: merchantIdentifier,
        keyType: .rsa,
        issuer: authority
    )

    static var minter: TokenMinter { TokenMinter(authority: authority) }

    /// The token library's identity, loaded from the PEM text as a merchant would load its files.
    static func identity(_ merchant: SandboxMerchantIdentity) throws -> MerchantIdentity {
        try MerchantIdentity(
            certificate: merchant.certificate,
            privateKey: KeyMaterial.privateKey(from: Array(merchant.privateKeyPEM.utf8))
        )
    }

    static func keyRing() throws -> MerchantKeyRing {
        MerchantKeyRing([try identity(ecMerchant), try identity(rsaMerchant)])
    }

    static func merchant(for version: MintRequest.Version) -> SandboxMerchantIdentity {
        version == .ecV1 ? ecMerchant : rsaMerchant
    }

    static func decryptor(trusting roots: TrustRoots = authority.trustRoots) -> ApplePayTokenDecryptor {
        ApplePayTokenDecryptor(trustRoots: roots)
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: bytes))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The bytes Apple's signature covers, rebuilt from the token's public fields.
    static func signedContent(of token: PaymentToken) -> [UInt8] {
        var content: [UInt8]
        switch token.header.keyExchange {
        case .ephemeralPublicKey(let bytes), .wrappedKey(let bytes): content = bytes
        }
        content += token.data + token.header.transactionIdBytes
        if let applicationData = token.header.applicationData { content += applicationData }
        return content
    }
}

extension MintRequest.Version: CustomTestStringConvertible {
    public var testDescription: String { self == .ecV1 ? "EC_v1" : "RSA_v1" }
}

extension MintRequest.Signer: CustomTestStringConvertible {
    public var testDescription: String { self == .ecLeaf ? "EC leaf" : "RSA leaf" }
}
