import ApplePayToken
import Crypto
import Foundation

/// A session as the store keeps it: its identity and bookkeeping in clear, everything the payer
/// or merchant put into it sealed (AES-GCM) by the front end, so the store never holds a card
/// number, security code, Apple Pay token or cryptogram in clear.
package struct StoredSession: Sendable, Hashable {
    package var id: String
    package var merchantId: String
    /// Changes with every successful update (MPGS `session.version`).
    package var version: String
    package var updateStatus: SessionUpdateStatus
    package var authenticationLimit: Int
    /// The session's content, sealed with the session key; the session id is its associated data.
    package var sealedContent: [UInt8]
    package var createdAt: Date
    package var expiresAt: Date

    package init(
        id: String,
        merchantId: String,
        version: String,
        updateStatus: SessionUpdateStatus,
        authenticationLimit: Int,
        sealedContent: [UInt8],
        createdAt: Date,
        expiresAt: Date
    ) {
        self.id = id
        self.merchantId = merchantId
        self.version = version
        self.updateStatus = updateStatus
        self.authenticationLimit = authenticationLimit
        self.sealedContent = sealedContent
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// MPGS `session.updateStatus`: whether anything was put into the session; a payment needs `SUCCESS`.
package enum SessionUpdateStatus: String, Sendable, Hashable {
    case noUpdate = "NO_UPDATE"
    case success = "SUCCESS"
    /// A payment has taken the session and is being processed: no other may (shown as SUCCESS).
    case claimedForPayment = "CLAIMED_FOR_PAYMENT"
}

/// Where sessions live: in the same database as orders, so every replica sees a session another
/// created. Like ``TransactionStore`` it decides nothing.
/// How a store keys a session: a session id is the payer's credential for it, so the store keeps
/// only its SHA-256 (`sha256:` and lower-case hex), as a password store keeps a hash. The ids
/// are 144 random bits, so an unsalted hash is enough.
package enum SessionStorageKey {
    package static let prefix = "sha256:"

    package static func of(_ sessionId: String) -> String {
        prefix + Hex.encode(Array(SHA256.hash(data: Array(sessionId.utf8))))
    }
}

package protocol SessionStore: Sendable {
    func insertSession(_ session: StoredSession) async throws

    /// The session, expired or not (the caller decides what expiry means).
    func session(id: String) async throws -> StoredSession?

    /// Replaces the session when the stored version is still `expectedVersion`; false when
    /// another update came first.
    func replaceSession(_ session: StoredSession, expectedVersion: String) async throws -> Bool

    func deleteSession(id: String) async throws

    /// Removes every session that expired before `time`, contents and all.
    func deleteSessions(expiredBefore time: Date) async throws
}
