import ApplePaySandbox
import Crypto
import Foundation
import SwiftASN1
import X509

/// Issue 32: the sandbox's own certificate authority for HTTPS, made on first use in
/// `sandbox.tlsDirectory` (as mkcert does): a CA, a server certificate for localhost and
/// 127.0.0.1 that it signed, and client certificates it signs from merchants' CSRs. Trusted by
/// nobody but the clients told to (`curl --cacert`): never for production.
public struct LocalTLSAuthority: Sendable {
    enum File {
        static let ca = "ca.pem"
        static let caKey = "ca-key.pem"
        static let server = "server.pem"
        static let serverKey = "server-key.pem"
    }

    let directory: URL
    let ca: Certificate
    let caKey: P256.Signing.PrivateKey

    package var caPath: String { directory.appendingPathComponent(File.ca).path }
    package var serverCertificatePath: String { directory.appendingPathComponent(File.server).path }
    package var serverKeyPath: String { directory.appendingPathComponent(File.serverKey).path }

    /// Loads the authority in `directory`, making it (and the server certificate) when absent.
    package static func loadOrCreate(at directory: URL, now: Date = Date()) throws -> LocalTLSAuthority {
        let caURL = directory.appendingPathComponent(File.ca)
        if FileManager.default.fileExists(atPath: caURL.path) {
            let ca = try Certificate(pemEncoded: String(contentsOf: caURL, encoding: .utf8))
            let key = try P256.Signing.PrivateKey(
                pemRepresentation: String(contentsOf: directory.appendingPathComponent(File.caKey), encoding: .utf8)
            )
            return LocalTLSAuthority(directory: directory, ca: ca, caKey: key)
        }
        try SecureFile.createDirectory(directory)
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName {
            OrganizationName("Apple Pay gateway sandbox")
            CommonName("Apple Pay gateway sandbox local CA")
        }
        let publicKey = Certificate.PublicKey(key.publicKey)
        let ca = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: publicKey,
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(10 * 365 * 86_400),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: publicKey)
            },
            issuerPrivateKey: Certificate.PrivateKey(key)
        )
        let authority = LocalTLSAuthority(directory: directory, ca: ca, caKey: key)
        try SecureFile.store(Array(key.pemRepresentation.utf8), at: directory.appendingPathComponent(File.caKey), mode: 0o600)
        try SecureFile.store(Array((try ca.serializeAsPEM().pemString + "\n").utf8), at: caURL, mode: 0o644)
        try authority.writeServerCertificate(now: now)
        return authority
    }

    /// A server certificate for localhost, 127.0.0.1 and ::1, valid for a year.
    func writeServerCertificate(now: Date) throws {
        let key = P256.Signing.PrivateKey()
        let certificate = try issue(
            subject: try DistinguishedName { CommonName("localhost") },
            publicKey: Certificate.PublicKey(key.publicKey),
            usage: .serverAuth,
            names: [
                .dnsName("localhost"),
                .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                .ipAddress(ASN1OctetString(contentBytes: ArraySlice([UInt8](repeating: 0, count: 15) + [1]))),
            ],
            days: 365,
            now: now
        )
        try SecureFile.store(Array(key.pemRepresentation.utf8), at: URL(fileURLWithPath: serverKeyPath), mode: 0o600)
        try SecureFile.store(
            Array((try certificate.serializeAsPEM().pemString + "\n").utf8),
            at: URL(fileURLWithPath: serverCertificatePath),
            mode: 0o644
        )
    }

    /// A client certificate for a merchant's CSR: its subject and key, signed here.
    package func signClientCertificate(_ request: CertificateSigningRequest, days: Int, now: Date = Date()) throws -> Certificate {
        guard request.publicKey.isValidSignature(request.signature, for: request) else {
            throw LocalTLSAuthorityError("the CSR's signature does not verify with its own key")
        }
        return try issue(subject: request.subject, publicKey: request.publicKey, usage: .clientAuth, names: [], days: days, now: now)
    }

    private func issue(
        subject: DistinguishedName,
        publicKey: Certificate.PublicKey,
        usage: ExtendedKeyUsage.Usage,
        names: [GeneralName],
        days: Int,
        now: Date
    ) throws -> Certificate {
        try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: publicKey,
            notValidBefore: now.addingTimeInterval(-300),
            notValidAfter: now.addingTimeInterval(TimeInterval(days) * 86_400),
            issuer: ca.subject,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([usage])
                SubjectKeyIdentifier(hash: publicKey)
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: ca.publicKey).keyIdentifier)
                if !names.isEmpty { SubjectAlternativeNames(names) }
            },
            issuerPrivateKey: Certificate.PrivateKey(caKey)
        )
    }
}

/// A local CA operation that cannot be done, in words for the command line.
public struct LocalTLSAuthorityError: Error, CustomStringConvertible {
    public let description: String
    package init(_ description: String) { self.description = description }
}
