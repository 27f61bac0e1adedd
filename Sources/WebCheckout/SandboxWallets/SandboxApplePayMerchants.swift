import ApplePayToken
import Crypto
import Foundation
import GatewayCore

/// The configured merchants that have an Apple Pay identity, found by the merchant identifier a
/// validation request names (its SHA-256 is what the identity's certificate holds).
struct SandboxApplePayMerchants: Sendable {
    /// Sorted by id, so every replica picks the same merchant when two share an identifier.
    let merchants: [Merchant]

    init(_ merchants: [String: Merchant]) {
        self.merchants = merchants.values.filter { !$0.keyRing.identities.isEmpty }.sorted { $0.id < $1.id }
    }

    func merchant(identifierHash: [UInt8]) -> Merchant? {
        merchants.first { merchant in merchant.keyRing.identities.contains { $0.merchantIdentifierHash == identifierHash } }
    }

    static func hash(of merchantIdentifier: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(merchantIdentifier.utf8)))
    }

    /// What is configured, for an error message: gateway merchant ids and identifier hashes.
    var configured: String {
        guard !merchants.isEmpty else { return "no merchant has an Apple Pay identity configured" }
        return "configured: "
            + merchants.map { merchant in
                let hashes = Set(merchant.keyRing.identities.map { Hex.encode($0.merchantIdentifierHash, uppercase: true) })
                return "\(merchant.id) (SHA-256 of its merchant identifier: \(hashes.sorted().joined(separator: ", ")))"
            }.joined(separator: "; ")
    }
}
