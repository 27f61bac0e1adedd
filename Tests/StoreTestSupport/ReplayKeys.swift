import Crypto
import GatewayCore

extension ApplePayReplayKey {
    /// A key for store tests: the name as the transaction id, and a digest made from it.
    package static func named(_ name: String) -> ApplePayReplayKey {
        ApplePayReplayKey(transactionId: name, dataDigest: Array(SHA256.hash(data: Array(name.utf8))))
    }
}

extension TransactionStore {
    /// Whether the store refuses a token whose transaction id (or digest) is that of `name`.
    package func isUsed(_ name: String) async throws -> Bool {
        try await isApplePayTokenUsed(.named(name))
    }
}
