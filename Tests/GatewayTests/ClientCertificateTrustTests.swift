import Crypto
import Foundation
import GatewayConfigurationFile
import GatewayHTTP
import SwiftASN1
import Testing
import X509

@testable import Gateway
@testable import GatewayCertificates
@testable import GatewayTransport

/// Issue 32: which merchant a client certificate stands for, and the configuration behind it.
@Suite("Client certificates and HTTPS configuration")
struct ClientCertificateTrustTests {
    static func authority() throws -> LocalTLSAuthority {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("local-ca-\(UUID().uuidString)")
        return try LocalTLSAuthority.loadOrCreate(at: folder)
    }

    static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    static func clientCertificate(_ authority: LocalTLSAuthority, commonName: String, days: Int = 30) throws -> Certificate {
        let key = P256.Signing.PrivateKey()
        let request = try CertificateSigningRequest(
            version: .v1,
            subject: try DistinguishedName { CommonName(commonName) },
            privateKey: Certificate.PrivateKey(key),
            attributes: CertificateSigningRequest.Attributes(),
            signatureAlgorithm: .ecdsaWithSHA256
        )
        return try authority.signClientCertificate(request, days: days)
    }

    @Test("issuer plus subject: the merchant's own certificate passes; another subject, another issuer, expiry and garbage do not")
    func issued() throws {
        let authority = try Self.authority()
        let otherAuthority = try Self.authority()
        let trust = ClientCertificateTrust(rules: [
            ("M1", .issued(by: authority.ca, subject: "CN=M1")),
            ("M2", .issued(by: authority.ca, subject: "CN=M2")),
        ])
        let mine = try Self.der(try Self.clientCertificate(authority, commonName: "M1"))
        #expect(trust.caller(presenting: mine, at: Date()) == .merchants(["M1"]))
        let unknownSubject = try Self.der(try Self.clientCertificate(authority, commonName: "M3"))
        #expect(trust.caller(presenting: unknownSubject, at: Date()) == .refused(.unknown))
        let foreign = try Self.der(try Self.clientCertificate(otherAuthority, commonName: "M1"))
        #expect(trust.caller(presenting: foreign, at: Date()) == .refused(.unknown))
        #expect(trust.caller(presenting: mine, at: Date().addingTimeInterval(31 * 86_400)) == .refused(.expired))
        #expect(trust.caller(presenting: mine, at: Date().addingTimeInterval(-86_400)) == .refused(.notYetValid))
        #expect(trust.caller(presenting: [0x30, 0x03, 0x02, 0x01, 0x01], at: Date()) == .refused(.unreadable))
        #expect(trust.caller(presenting: nil, at: Date()) == .refused(.absent))
    }

    @Test("a pinned certificate matches itself only, for every merchant that pins it")
    func pinned() throws {
        let authority = try Self.authority()
        let pinned = try Self.clientCertificate(authority, commonName: "ANY")
        let sibling = try Self.clientCertificate(authority, commonName: "ANY")
        let trust = ClientCertificateTrust(rules: [("M1", .pinned(pinned)), ("M2", .pinned(pinned))])
        #expect(trust.caller(presenting: try Self.der(pinned), at: Date()) == .merchants(["M1", "M2"]))
        #expect(trust.caller(presenting: try Self.der(sibling), at: Date()) == .refused(.unknown))
    }

    func load(_ environment: [String: String]) async throws -> GatewayConfiguration {
        try await GatewayService.loadConfiguration(.init(), environment: environment)
    }

    @Test("server.tls.* needs both files; the certificate listener needs TLS; client certificates name a certificate or an issuer with a subject")
    func configuration() async throws {
        await #expect(throws: ConfigurationError.self) {
            try await load(["GATEWAY_SERVER_TLS_CERTIFICATE": "/tmp/x.pem"])
        }
        let portOnly = try await load(["GATEWAY_SERVER_CERTIFICATE_AUTHENTICATION_PORT": "0"])
        #expect(throws: ConfigurationError.self) { try portOnly.checkCertificateListener() }
        await #expect(throws: ConfigurationError.self) {
            try await load([
                "GATEWAY_MERCHANT_TESTMERCHANT_CLIENT_CERTIFICATES": "a",
                "GATEWAY_MERCHANT_TESTMERCHANT_CLIENT_CERTIFICATE_A_ISSUER": "/tmp/ca.pem",
            ])
        }
        let configured = try await load([
            "GATEWAY_MERCHANT_TESTMERCHANT_CLIENT_CERTIFICATES": "a",
            "GATEWAY_MERCHANT_TESTMERCHANT_CLIENT_CERTIFICATE_A_ISSUER": "/tmp/ca.pem",
            "GATEWAY_MERCHANT_TESTMERCHANT_CLIENT_CERTIFICATE_A_SUBJECT": "CN=TESTMERCHANT",
        ])
        guard case .issued(_, let issuer, let subject)? = configured.merchants.first?.clientCertificates.first else {
            Issue.record("no issued client certificate read")
            return
        }
        #expect(issuer == "/tmp/ca.pem" && subject == "CN=TESTMERCHANT")
    }

    @Test("the local CA's server certificate and key load as a TLS context; a mismatched key is a configuration error naming the key")
    func tlsContext() throws {
        let authority = try Self.authority()
        let settings = GatewayConfiguration.TLSSettings(
            certificatePath: authority.serverCertificatePath,
            privateKeyPath: authority.serverKeyPath
        )
        let source = try TLSContextSource(settings, requiresClientCertificate: false)
        try source.reload()
        let mismatched = GatewayConfiguration.TLSSettings(
            certificatePath: authority.serverCertificatePath,
            privateKeyPath: authority.directory.appendingPathComponent("ca-key.pem").path
        )
        #expect(throws: ConfigurationError.self) { try TLSContextSource(mismatched, requiresClientCertificate: false) }
    }
}
