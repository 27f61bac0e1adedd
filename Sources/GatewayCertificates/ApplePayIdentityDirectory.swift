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

    /// One key of the directory and the files named after it. The first key of an algorithm is
    /// `ec` (or `rsa`); a rotation adds `ec-2`, `ec-3`..., so the old key stays where the gateway
    /// reads it until its tokens stop arriving.
    public struct Slot: Sendable, Hashable, CustomStringConvertible {
        public let algorithm: PaymentProcessingKeyRequest.Algorithm
        public let generation: Int

        public init(_ algorithm: PaymentProcessingKeyRequest.Algorithm, generation: Int = 1) {
            self.algorithm = algorithm
            self.generation = generation
        }

        /// `ec`, `ec-2`...: the files' prefix and the identity's default name in the configuration.
        public var label: String { generation == 1 ? algorithm.rawValue : "\(algorithm.rawValue)-\(generation)" }
        public var description: String { label }
    }

    public func keyFile(_ slot: Slot) -> URL { directory.appending(path: "\(slot.label)-key.pem") }
    public func requestFile(_ slot: Slot) -> URL { directory.appending(path: "\(slot.label).certSigningRequest") }
    public func certificateFile(_ slot: Slot) -> URL { directory.appending(path: "\(slot.label)-certificate.pem") }
    public func keyFile(_ algorithm: PaymentProcessingKeyRequest.Algorithm) -> URL { keyFile(Slot(algorithm)) }
    public func requestFile(_ algorithm: PaymentProcessingKeyRequest.Algorithm) -> URL { requestFile(Slot(algorithm)) }
    public func certificateFile(_ algorithm: PaymentProcessingKeyRequest.Algorithm) -> URL { certificateFile(Slot(algorithm)) }

    /// The keys generated here, oldest generation first.
    public func existingSlots() -> [Slot] {
        PaymentProcessingKeyRequest.Algorithm.allCases.flatMap { algorithm in
            (1...).lazy.map { Slot(algorithm, generation: $0) }
                .prefix { FileManager.default.fileExists(atPath: keyFile($0).path) }
        }
    }

    /// The newest key of an algorithm (what `sandbox-sign` signs by default).
    public func newestSlot(_ algorithm: PaymentProcessingKeyRequest.Algorithm) -> Slot? {
        existingSlots().last { $0.algorithm == algorithm }
    }

    /// Generates a key and its CSR for each algorithm, beside any keys already here: a key is
    /// never replaced (the certificate Apple issued for it would be orphaned, and tokens
    /// encrypted to it undecryptable), so a rotation gets the next generation's names.
    public func createKeys(_ algorithms: [PaymentProcessingKeyRequest.Algorithm]) throws -> [Slot] {
        try SecureFile.createDirectory(directory)
        var slots: [Slot] = []
        for algorithm in algorithms {
            let slot = Slot(algorithm, generation: (newestSlot(algorithm)?.generation ?? 0) + 1)
            let generated = try PaymentProcessingKeyRequest.generate(algorithm, merchantIdentifier: merchantIdentifier)
            try SecureFile.store(Array(generated.privateKeyPEM.utf8), at: keyFile(slot), mode: 0o600)
            try SecureFile.store(Array(try generated.requestPEM.utf8), at: requestFile(slot), mode: 0o644)
            slots.append(slot)
        }
        return slots
    }

    /// Checks the certificate Apple returned (DER `.cer`, or PEM) without writing anything. It
    /// must be a Payment Processing certificate (not Merchant Identity), for this merchant
    /// identifier, and hold the public key of one of the keys generated here.
    public func match(certificate bytes: [UInt8]) throws -> (certificate: Certificate, slot: Slot) {
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
            throw ApplePayIdentityError(
                "the certificate was issued for \(MerchantIdentity.merchantName(in: certificate)), not for \(merchantIdentifier): "
                    + "give --merchant the identifier it was issued for, or the certificate issued for \(merchantIdentifier)"
            )
        }
        for slot in existingSlots() {
            guard let keyBytes = FileManager.default.contents(atPath: keyFile(slot).path) else { continue }
            let privateKey = try KeyMaterial.privateKey(from: Array(keyBytes))
            if privateKey.isKey(of: certificate) { return (certificate, slot) }
        }
        throw ApplePayIdentityError(
            "the certificate's public key matches none of the keys in \(directory.path): "
                + "was its CSR made by `applepay-identity new --merchant \(merchantIdentifier)` in this directory?"
        )
    }

    /// What storing a certificate did.
    public enum Stored: Sendable, Equatable {
        case stored, alreadyInstalled, replaced
    }

    /// Stores a certificate ``match(certificate:)`` accepted beside its key. Another certificate
    /// already there (Apple re-issued one for the same key) is replaced only when asked.
    public func store(_ certificate: Certificate, for slot: Slot, replace: Bool) throws -> Stored {
        let pem = try certificate.serializeAsPEM().pemString
        let bytes = Array((pem.hasSuffix("\n") ? pem : pem + "\n").utf8)
        let existing = FileManager.default.contents(atPath: certificateFile(slot).path)
        if let existing, Array(existing) == bytes { return .alreadyInstalled }
        if existing != nil, !replace {
            throw ApplePayIdentityError(
                "\(certificateFile(slot).path) already holds another certificate for this key; pass --replace to replace it"
            )
        }
        try SecureFile.store(bytes, at: certificateFile(slot), mode: 0o644)
        return existing == nil ? .stored : .replaced
    }
}
