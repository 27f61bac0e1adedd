import ApplePaySandbox
import Crypto
import Foundation
import X509

/// Issue 32: a merchant's client certificate for certificate authentication: the key and CSR
/// (`gateway merchant-certificate new`), and in sandbox mode a certificate the local CA signs
/// from the CSR (`gateway merchant-certificate sandbox-sign`), which a `--tls` sandbox accepts.
public enum MerchantCertificates {
    /// Writes `<directory>/<ID>-key.pem` (EC P-256, mode 0600) and `<ID>.csr` for subject `CN=<ID>`.
    public static func new(merchantId: String, directory: String) throws -> (key: String, request: String) {
        guard (1...40).contains(merchantId.count),
            merchantId.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
        else { throw LocalTLSAuthorityError("'\(merchantId)' is not a merchant id (1-40 letters, digits, - or _)") }
        let folder = URL(fileURLWithPath: directory)
        let keyURL = folder.appendingPathComponent("\(merchantId)-key.pem")
        let requestURL = folder.appendingPathComponent("\(merchantId).csr")
        guard !FileManager.default.fileExists(atPath: keyURL.path) else {
            throw LocalTLSAuthorityError("\(keyURL.path) exists: move it away to make a new key")
        }
        try SecureFile.createDirectory(folder)
        let key = P256.Signing.PrivateKey()
        let request = try CertificateSigningRequest(
            version: .v1,
            subject: try DistinguishedName { CommonName(merchantId) },
            privateKey: Certificate.PrivateKey(key),
            attributes: CertificateSigningRequest.Attributes(),
            signatureAlgorithm: .ecdsaWithSHA256
        )
        try SecureFile.store(Array(key.pemRepresentation.utf8), at: keyURL, mode: 0o600)
        try SecureFile.store(Array((try request.serializeAsPEM().pemString + "\n").utf8), at: requestURL, mode: 0o644)
        return (keyURL.path, requestURL.path)
    }
}
