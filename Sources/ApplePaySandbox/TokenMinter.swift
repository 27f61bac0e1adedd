import ApplePayToken
import Crypto
import Foundation
import _CryptoExtras

/// Mints Apple Pay `paymentData` tokens as a device and Apple's servers would: encrypted for a
/// merchant's payment processing key and signed through a ``SandboxAuthority``.
///
/// ```swift
/// let minter = TokenMinter(authority: authority)
/// var request = MintRequest()
/// request.transactionAmount = 1999
/// let token = try minter.mint(request, for: MintRecipient(certificate: merchantCertificate))
/// ```
public struct TokenMinter: Sendable {
    public let authority: SandboxAuthority

    public init(authority: SandboxAuthority) {
        self.authority = authority
    }

    /// The paymentData JSON text, exactly as a device would produce it (keys: version, data, signature, header{ephemeralPublicKey|wrappedKey, publicKeyHash, transactionId, applicationData?}).
    public func mint(_ request: MintRequest, for recipient: MintRecipient) throws -> String {
        let transactionId = request.transactionId ?? Bytes.random(count: 32)
        guard !transactionId.isEmpty else { throw SandboxError("transactionId must not be empty") }
        let plaintext = Array(request.paymentDataJSON.utf8)
        let keyExchangeName: String
        let keyExchange: [UInt8]
        let data: [UInt8]
        switch (request.version, recipient.publicKey) {
        case (.ecV1, .ec(let merchantKey)):
            // A fresh ephemeral key per token, as a device does; Z keeps its leading zero bytes.
            let ephemeral = P256.KeyAgreement.PrivateKey()
            let sharedSecret = try ephemeral.sharedSecretFromKeyAgreement(with: merchantKey)
            let key = sharedSecret.withUnsafeBytes { z in
                AppleKDF.symmetricKey(sharedSecret: z, merchantIdentifierHash: recipient.merchantIdentifierHash)
            }
            keyExchangeName = "ephemeralPublicKey"
            keyExchange = Array(ephemeral.publicKey.derRepresentation)
            data = try Self.seal(plaintext, using: key)
        case (.rsaV1, .rsa(let subjectPublicKeyInfo)):
            let key = SymmetricKey(size: .bits128)
            let merchantKey = try _RSA.Encryption.PublicKey(unsafeDERRepresentation: subjectPublicKeyInfo)
            keyExchangeName = "wrappedKey"
            keyExchange = Array(try key.withUnsafeBytes { try merchantKey.encrypt(Array($0), padding: .PKCS1_OAEP_SHA256) })
            data = try Self.seal(plaintext, using: key)
        case (.ecV1, .rsa):
            throw SandboxError("an EC_v1 token needs a merchant EC (P-256) key; this recipient's key is RSA")
        case (.rsaV1, .ec):
            throw SandboxError("an RSA_v1 token needs a merchant RSA key; this recipient's key is EC")
        }

        let applicationDataHash = request.applicationData.map { Array(SHA256.hash(data: $0)) }

        // The content Apple signs: key exchange value || data || transactionId || SHA-256(applicationData).
        var signedContent = keyExchange + data + transactionId
        if let applicationDataHash { signedContent += applicationDataHash }
        let signature = try signatureBuilder(for: request.signer)
            .detachedSignature(for: signedContent, signingTime: request.signingTime)

        var header: [(String, JSONText)] = []
        if let applicationDataHash { header.append(("applicationData", .string(Hex.encode(applicationDataHash)))) }
        header += [
            (keyExchangeName, .string(Data(keyExchange).base64EncodedString())),
            ("publicKeyHash", .string(Data(recipient.publicKeyHash).base64EncodedString())),
            ("transactionId", .string(Hex.encode(transactionId))),
        ]
        let token: JSONText = .object([
            ("version", .string(request.version == .ecV1 ? "EC_v1" : "RSA_v1")),
            ("data", .string(Data(data).base64EncodedString())),
            ("signature", .string(Data(signature).base64EncodedString())),
            ("header", .object(header)),
        ])
        return token.text
    }

    private func signatureBuilder(for signer: MintRequest.Signer) -> CMSSignedDataBuilder {
        switch signer {
        case .ecLeaf:
            CMSSignedDataBuilder(
                signerCertificate: authority.ecLeaf,
                signerKey: .ec(authority.ecLeafKey),
                otherCertificates: [authority.intermediate]
            )
        case .rsaLeaf:
            CMSSignedDataBuilder(
                signerCertificate: authority.rsaLeaf,
                signerKey: .rsa(authority.rsaLeafKey),
                otherCertificates: [authority.intermediate]
            )
        }
    }

    /// AES-GCM with Apple's 16-byte zero IV and no associated data: ciphertext followed by the tag.
    /// A zero IV is safe here only because every key is fresh (ECDH with a new ephemeral key, or a random AES key).
    private static func seal(_ plaintext: [UInt8], using key: SymmetricKey) throws -> [UInt8] {
        let box = try AES.GCM.seal(plaintext, using: key, nonce: try AES.GCM.Nonce(data: [UInt8](repeating: 0, count: 16)))
        return Array(box.ciphertext) + Array(box.tag)
    }
}
