import ApplePaySandbox
import Crypto
import Foundation
import SwiftASN1
import Testing
import X509

@testable import Gateway
@testable import GatewayCertificates
@testable import MPGSAPI

/// `applepay-identity install` takes Apple's Payment Processing certificate and refuses its
/// Merchant Identity certificate, which carries the same merchant identifier extension.
@Suite("Apple certificate kinds")
struct AppleCertificateKindTests {
    static let vectors = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Tests/ApplePayTokenTests/Fixtures/conformance/vectors")

    @Test(
        "Apple's real Payment Processing certificates are recognised",
        arguments: ["gala-2014", "gala-2021", "basistheory-ec-old", "basistheory-rsa", "vgs-starlarky-2023"]
    )
    func realPaymentProcessing(vector: String) throws {
        let pem = try String(contentsOf: Self.vectors.appending(path: "\(vector)/certificate.pem"), encoding: .utf8)
        #expect(AppleCertificateKind(try Certificate(pemEncoded: pem)) == .paymentProcessing)
    }

    @Test("a Merchant Identity certificate for a key made here is refused by install, naming what it is")
    func merchantIdentityRefused() throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "kind-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = try ApplePayIdentityDirectory(root: root.path, merchantIdentifier: "merchant.com.example")
        _ = try directory.createKeys([.ec])
        let request = try CertificateSigningRequest(
            pemEncoded: String(contentsOf: directory.requestFile(.ec), encoding: .utf8)
        )

        let merchantIdentity = try Self.merchantIdentityShaped(publicKey: request.publicKey)
        #expect(AppleCertificateKind(merchantIdentity) == .merchantIdentity)
        #expect {
            try directory.match(certificate: Self.der(merchantIdentity))
        } throws: { error in
            "\(error)".contains("Merchant Identity certificate")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.certificateFile(.ec).path))

        // The same key in a Payment Processing certificate is accepted and stored.
        let authority = try SandboxAuthority.generate()
        let paymentProcessing = try authority.signPaymentProcessingRequest(request, merchantIdentifier: "merchant.com.example")
        let matched = try directory.match(certificate: Self.der(paymentProcessing))
        #expect(matched.slot == .init(.ec))
        #expect(try directory.store(matched.certificate, for: matched.slot, replace: false) == .stored)
        #expect(try directory.store(matched.certificate, for: matched.slot, replace: false) == .alreadyInstalled)
        #expect(FileManager.default.fileExists(atPath: directory.certificateFile(.ec).path))
    }

    @Test("a certificate without the merchant identifier extension is not an Apple Pay certificate")
    func other() throws {
        let authority = try SandboxAuthority.generate()
        #expect(AppleCertificateKind(authority.root) == .other)
    }

    /// Shaped like the public "Apple Pay Merchant Identity:..." certificates: the merchant
    /// identifier extension, marker 1.2.840.113635.100.6.46 and TLS client authentication.
    static func merchantIdentityShaped(publicKey: Certificate.PublicKey) throws -> Certificate {
        let issuerKey = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("Apple Pay Merchant Identity:merchant.com.example") }
        var identifier = DER.Serializer()
        try identifier.serialize(ASN1UTF8String(String(repeating: "AB", count: 32)))
        var null = DER.Serializer()
        try null.serialize(ASN1Null())
        return try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: publicKey,
            notValidBefore: Date().addingTimeInterval(-60),
            notValidAfter: Date().addingTimeInterval(86_400),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.clientAuth])
                Certificate.Extension(oid: [1, 2, 840, 113635, 100, 6, 32], critical: false, value: identifier.serializedBytes[...])
                Certificate.Extension(oid: [1, 2, 840, 113635, 100, 6, 46], critical: false, value: null.serializedBytes[...])
            },
            issuerPrivateKey: Certificate.PrivateKey(issuerKey)
        )
    }

    static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}
