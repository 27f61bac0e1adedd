import ApplePaySandbox
import Foundation
import GatewayCertificates
import GatewayConfigurationFile
import GatewayCore
import X509

extension MerchantCertificates {
    /// Signs the CSR with the sandbox's local CA; writes the certificate beside the CSR (`.pem`).
    public static func sandboxSign(
        request path: String,
        days: Int,
        overrides: GatewayService.Overrides,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> (certificate: String, ca: String) {
        let configuration = try await GatewayService.loadConfiguration(overrides, environment: environment)
        guard configuration.mode == .sandbox else {
            throw ConfigurationError(key: "mode", problem: "is production: only a sandbox gateway has a local CA to sign with")
        }
        guard (1...825).contains(days) else { throw LocalTLSAuthorityError("--days must be 1-825") }
        let authority = try LocalTLSAuthority.loadOrCreate(at: URL(fileURLWithPath: configuration.sandboxTLSDirectory))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let request: CertificateSigningRequest
        do {
            request = try CertificateSigningRequest(pemEncoded: text)
        } catch {
            throw LocalTLSAuthorityError("\(path) holds no PEM certificate signing request")
        }
        let certificate = try authority.signClientCertificate(request, days: days)
        let output = URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension("pem")
        try SecureFile.store(Array((try certificate.serializeAsPEM().pemString + "\n").utf8), at: output, mode: 0o644)
        return (output.path, authority.caPath)
    }
}
