import Crypto
import Foundation
import SwiftASN1
import X509
import _CryptoExtras

/// Reads merchant keys and certificates in the shapes merchants actually have them: PEM (PKCS#8,
/// SEC1 "EC PRIVATE KEY", PKCS#1 "RSA PRIVATE KEY"), with "Bag Attributes" lines or an
/// "EC PARAMETERS" block in front as `openssl pkcs12` writes them, DER, and PKCS#12 bundles
/// exported from Keychain.
public enum KeyMaterial {
    /// What a PKCS#12 bundle holds: the key and, usually, its certificate.
    public struct Bundle: Sendable {
        public var privateKey: MerchantIdentity.PrivateKey
        public var certificate: Certificate?
    }

    /// Whether the bytes are a PKCS#12 bundle (then ``pkcs12(_:password:)`` reads them).
    public static func isPKCS12<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        guard let root = try? BER.parse(Array(bytes)), case .constructed(let parts) = root.content else { return false }
        let fields = Array(parts)
        return fields.count >= 2 && (try? Int(berEncoded: fields[0])) == 3 && fields[1].identifier == .sequence
    }

    /// Opens a PKCS#12 bundle (legacy RC2/3DES as Keychain writes them, or AES) with its password.
    public static func pkcs12<Bytes: Collection<UInt8>>(
        _ bytes: Bytes,
        password: String
    ) throws(ApplePayTokenError)
        -> Bundle
    {
        let contents = try OpenSSLPKCS12.open(Array(bytes), password: password)
        return Bundle(
            privateKey: try privateKey(der: contents.privateKey, label: "PRIVATE KEY"),
            certificate: try contents.certificate.map { der throws(ApplePayTokenError) in try certificate(from: der) }
        )
    }

    /// The first private key in a PEM or DER file.
    public static func privateKey<Bytes: Collection<UInt8>>(
        from bytes: Bytes
    ) throws(ApplePayTokenError)
        -> MerchantIdentity.PrivateKey
    {
        let bytes = Array(bytes)
        if let blocks = PEMBlock.parse(bytes) {
            if blocks.contains(where: { $0.label == "ENCRYPTED PRIVATE KEY" }) {
                throw ApplePayTokenError(
                    .invalidKeyMaterial,
                    "the private key is encrypted; decrypt it once with: openssl pkcs8 -in KEY.pem -out key-plain.pem"
                )
            }
            guard let block = blocks.first(where: { $0.label.hasSuffix("PRIVATE KEY") }) else {
                throw ApplePayTokenError(.invalidKeyMaterial, "the PEM file holds no PRIVATE KEY block")
            }
            return try privateKey(der: block.der, label: block.label)
        }
        try rejectPKCS12(bytes)
        return try privateKey(der: bytes, label: nil)
    }

    /// Every certificate in a PEM file, or the one certificate of a DER (`.cer`) file.
    public static func certificates<Bytes: Collection<UInt8>>(
        from bytes: Bytes
    ) throws(ApplePayTokenError)
        -> [Certificate]
    {
        let bytes = Array(bytes)
        let ders: [[UInt8]]
        if let blocks = PEMBlock.parse(bytes) {
            ders = blocks.filter { $0.label == "CERTIFICATE" }.map(\.der)
            guard !ders.isEmpty else {
                throw ApplePayTokenError(.invalidKeyMaterial, "the PEM file holds no CERTIFICATE block")
            }
        } else {
            try rejectPKCS12(bytes)
            ders = [bytes]
        }
        return try ders.map { der throws(ApplePayTokenError) in
            do {
                return try Certificate(derEncoded: der)
            } catch {
                throw ApplePayTokenError(.invalidKeyMaterial, "a certificate is not valid X.509 DER")
            }
        }
    }

    /// The one certificate of a PEM or DER file.
    public static func certificate<Bytes: Collection<UInt8>>(
        from bytes: Bytes
    ) throws(ApplePayTokenError)
        -> Certificate
    {
        try certificates(from: bytes)[0]
    }

    private static func privateKey(
        der: [UInt8],
        label: String?
    ) throws(ApplePayTokenError)
        -> MerchantIdentity.PrivateKey
    {
        if label != "RSA PRIVATE KEY", let key = try? P256.KeyAgreement.PrivateKey(derRepresentation: der) {
            return .ec(key)
        }
        if label != "EC PRIVATE KEY", let key = try? _RSA.Encryption.PrivateKey(unsafeDERRepresentation: der) {
            return .rsa(key)
        }
        throw ApplePayTokenError(
            .invalidKeyMaterial,
            "the private key is neither a P-256 EC key nor an RSA key (PKCS#8, SEC1 or PKCS#1)"
        )
    }

    /// A PKCS#12 bundle needs its password: say so rather than "not a key".
    private static func rejectPKCS12(_ bytes: [UInt8]) throws(ApplePayTokenError) {
        guard isPKCS12(bytes) else { return }
        throw ApplePayTokenError(
            .invalidKeyMaterial,
            "this is a PKCS#12 bundle: open it with its password (KeyMaterial.pkcs12, gateway --pkcs12-password), "
                + "or convert it once with: openssl pkcs12 -in BUNDLE.p12 -nodes -legacy -out merchant.pem"
        )
    }
}

/// One `-----BEGIN label-----` block; text outside blocks (Bag Attributes, subject= lines) is ignored.
struct PEMBlock {
    var label: String
    var der: [UInt8]

    /// nil when the bytes are not PEM text at all (then they are DER).
    static func parse(_ bytes: [UInt8]) -> [PEMBlock]? {
        guard let text = String(validating: bytes, as: UTF8.self), text.contains("-----BEGIN ") else { return nil }
        var blocks: [PEMBlock] = []
        var label: String?
        var body = ""
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----") {
                label = String(line.dropFirst(11).dropLast(5))
                body = ""
            } else if line.hasPrefix("-----END "), let open = label {
                if let der = Data(base64Encoded: body) { blocks.append(PEMBlock(label: open, der: Array(der))) }
                label = nil
            } else if label != nil, !line.contains(":") {
                body += line  // RFC 1421 headers (Proc-Type, DEK-Info) contain ':'; base64 never does
            }
        }
        return blocks
    }
}
