import ApplePaySandbox
import Foundation
import GatewayCertificates
import GatewayConfigurationFile
import SwiftASN1
import X509

/// The sandbox's stand-in for Apple's developer portal: signs a payment processing CSR with the
/// sandbox authority that a sandbox-mode gateway with the same configuration trusts.
public enum ApplePayIdentitySandbox {
    /// The DER certificate (what Apple's `.cer` download holds) for the CSR at `requestPath`.
    public static func sign(
        requestPath: String,
        merchantIdentifier: String,
        configFile: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> [UInt8] {
        let configuration = try GatewayConfiguration.load(file: configFile, environment: environment)
        guard configuration.mode == .sandbox else {
            throw ConfigurationError(key: "mode", problem: "is production: only Apple signs payment processing certificates for production")
        }
        guard let text = try? String(contentsOfFile: requestPath, encoding: .utf8) else {
            throw ApplePayIdentityError("cannot read the certificate signing request \(requestPath)")
        }
        let request: CertificateSigningRequest
        do {
            request = try CertificateSigningRequest(pemEncoded: text)
        } catch {
            throw ApplePayIdentityError("\(requestPath) is not a PEM certificate signing request")
        }
        let authority = try SandboxAuthority.loadOrCreate(at: URL(fileURLWithPath: configuration.sandboxAuthorityDirectory))
        let certificate = try authority.signPaymentProcessingRequest(request, merchantIdentifier: merchantIdentifier)
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}
