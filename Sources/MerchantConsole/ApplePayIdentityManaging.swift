import Foundation

/// One payment processing key of a merchant, as the certificate page lists it.
package struct ConsoleIdentity: Sendable, Hashable {
    /// The Apple merchant identifier, e.g. merchant.com.example.
    package var appleMerchantIdentifier: String
    /// The key's name (`ec`, `ec-2`, `rsa`): the files' prefix, as `gateway applepay-identity` names it.
    package var label: String
    /// When Apple's certificate for it expires; nil until one is installed.
    package var notValidAfter: Date?
    package var keyPath: String
    package var certificatePath: String

    package init(appleMerchantIdentifier: String, label: String, notValidAfter: Date?, keyPath: String, certificatePath: String) {
        self.appleMerchantIdentifier = appleMerchantIdentifier
        self.label = label
        self.notValidAfter = notValidAfter
        self.keyPath = keyPath
        self.certificatePath = certificatePath
    }
}

/// Why a certificate step or a sandbox payment did nothing, worded by what refused it (the
/// identity commands' checks, the gateway's explanation).
package struct ConsoleStepFailure: Error, Sendable {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
}

/// The Apple Pay payment processing keys of each merchant, kept as `gateway applepay-identity`
/// keeps them (the server supplies it; the private keys never leave its disk).
package protocol ApplePayIdentityManaging: Sendable {
    func identities(merchantId: String) -> [ConsoleIdentity]
    /// A new EC P-256 key and its CSR.
    func createKey(merchantId: String, appleMerchantIdentifier: String) throws(ConsoleStepFailure) -> ConsoleIdentity
    /// The CSR to upload to Apple (PEM).
    func certificateSigningRequest(
        merchantId: String,
        appleMerchantIdentifier: String,
        label: String
    ) throws(ConsoleStepFailure) -> [UInt8]
    /// Checks Apple's certificate as `applepay-identity install` does, then stores it by its key.
    func install(merchantId: String, appleMerchantIdentifier: String, certificate: [UInt8]) throws(ConsoleStepFailure) -> ConsoleIdentity
    /// Moves the key, CSR and certificate out of use (into `retired/`), never deleting them.
    func retire(merchantId: String, appleMerchantIdentifier: String, label: String) throws(ConsoleStepFailure)
}
