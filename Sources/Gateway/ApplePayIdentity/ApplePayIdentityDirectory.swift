import ApplePaySandbox
import ApplePayToken
import Crypto
import Foundation
import X509

/// The files of one Apple merchant identifier's payment processing keys, under
/// `<root>/<merchant identifier>/`: `ec-key.pem` / `rsa-key.pem` (mode 0600), the CSRs
/// `ec.certSigningRequest` / `rsa.certSigningRequest` to upload to Apple, and, once installed,
/// `ec-certificate.pem` / `rsa-certificate.pem`.
public struct ApplePayIdentityDirectory: Sendable {
    public let merchantIdentifier: String
    public let directory: URL

    public init(root: String, merchantIdentifier: String) throws(ApplePayIdentityError) {
        // Apple's portal requires the prefix; the identifier also names a directory, so no path separators.
        let allowed = merchantIdentifier.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
        guard merchantIdentifier.hasPrefix("merchant."), merchantIdentifier.count > "merchant.".count, allowed,
            !merchantIdentifier.contains("..")
        else {
            throw ApplePayIdentityError(
                "--merchant must be an Apple merchant identifier such as merchant.com.example "
                    + "(letters, digits, '.' and '-', starting with 'merchant.'), got '\(merchantIdentifier)'"
            )
        }
        self.merchantIdentifier = merchantIdentifier
        self.directory = URL(fileURLWithPath: root).appending(path: merchantIdentifier)
    }

    public func keyFile(_ algorithm: PaymentProcessingKeyRequest.Algorithm) -> URL {
        directory.appending(path: "\(algorithm.rawValue)-key.pem")
    }

    public func requestFile(_ algorithm: PaymentProcessingKeyRequest.Algorithm) -> URL {
        directory.appending(path: "\(algorithm.rawValue).certSigningRequest")
    }

    public func certificateFile(_ algorithm: PaymentProcessingKeyRequest.Algorithm) -> URL {
        directory.appending(path: "\(algorithm.rawValue)-certificate.pem")
    }

    /// Generates a key and its CSR for each algorithm. Refuses to replace a key: the certificate
    /// Apple issued for it would be orphaned, and tokens encrypted to it undecryptable.
    public func createKeys(_ algorithms: [PaymentProcessingKeyRequest.Algorithm]) throws -> [URL] {
        for algorithm in algorithms where FileManager.default.fileExists(atPath: keyFile(algorithm).path) {
            throw ApplePayIdentityError(
                "\(keyFile(algorithm).path) already exists; replacing it would orphan the certificate Apple issued for it. "
                    + "Move it away first if you really mean to start again."
            )
        }
        try SecureFile.createDirectory(directory)
        var requests: [URL] = []
        for algorithm in algorithms {
            let generated = try PaymentProcessingKeyRequest.generate(algorithm, merchantIdentifier: merchantIdentifier)
            try SecureFile.store(Array(generated.privateKeyPEM.utf8), at: keyFile(algorithm), mode: 0o600)
            try SecureFile.store(Array(try generated.requestPEM.utf8), at: requestFile(algorithm), mode: 0o644)
            requests.append(requestFile(algorithm))
        }
        return requests
    }

    /// Checks the certificate Apple returned (DER `.cer`, or PEM) and stores it beside its key.
    /// It must be a Payment Processing certificate (not Merchant Identity), for this merchant
    /// identifier, and hold the public key of one of the keys generated here.
    public func install(certificate bytes: [UInt8]) throws -> PaymentProcessingKeyRequest.Algorithm {
        let certificate: Certificate
        do {
            certificate = try KeyMaterial.certificate(from: bytes)
        } catch {
            throw ApplePayIdentityError("the certificate is neither DER (Apple's .cer) nor PEM")
        }
        switch AppleCertificateKind(certificate) {
        case .paymentProcessing: break
        case .merchantIdentity:
            throw ApplePayIdentityError(
                "this is an Apple Pay Merchant Identity certificate (TLS client authentication for merchant validation "
                    + "on the web), not a Payment Processing certificate. In the developer portal, create the certificate "
                    + "under 'Apple Pay Payment Processing Certificate' with the CSR from `applepay-identity new`"
            )
        case .other:
            throw ApplePayIdentityError(
                "this is not an Apple Pay Payment Processing certificate: it has no merchant identifier extension (1.2.840.113635.100.6.32)"
            )
        }
        let expectedHash = Array(SHA256.hash(data: Data(merchantIdentifier.utf8)))
        guard (try? MerchantIdentity.merchantIdentifierHash(in: certificate)) == expectedHash else {
            throw ApplePayIdentityError("the certificate was issued for another merchant identifier than \(merchantIdentifier)")
        }
        for algorithm in PaymentProcessingKeyRequest.Algorithm.allCases {
            guard let keyBytes = FileManager.default.contents(atPath: keyFile(algorithm).path) else { continue }
            let privateKey = try KeyMaterial.privateKey(from: Array(keyBytes))
            guard (try? MerchantIdentity(certificate: certificate, privateKey: privateKey)) != nil else { continue }
            let pem = try certificate.serializeAsPEM().pemString
            try SecureFile.store(Array((pem.hasSuffix("\n") ? pem : pem + "\n").utf8), at: certificateFile(algorithm), mode: 0o644)
            return algorithm
        }
        throw ApplePayIdentityError(
            "the certificate's public key matches none of the keys in \(directory.path): "
                + "was its CSR made by `applepay-identity new --merchant \(merchantIdentifier)` in this directory?"
        )
    }
}
