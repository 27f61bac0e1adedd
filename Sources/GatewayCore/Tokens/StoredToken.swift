import Foundation

/// A gateway token as the store keeps it: which merchant's repository it is in, whether it may
/// be used, and the card it stands for, sealed (AES-GCM) by the front end, so the store never
/// holds a card number in clear.
package struct StoredToken: Sendable, Hashable {
    /// The token itself (digits, in the repository's format); unique within its merchant's repository.
    package var token: String
    package var merchantId: String
    package var status: TokenStatus
    /// The card (number and expiry), sealed with the token key; merchant and token are its associated data.
    package var sealedCard: [UInt8]
    package var createdAt: Date
    /// MPGS `usage.lastUpdated`.
    package var updatedAt: Date

    package init(token: String, merchantId: String, status: TokenStatus, sealedCard: [UInt8], createdAt: Date, updatedAt: Date) {
        self.token = token
        self.merchantId = merchantId
        self.status = status
        self.sealedCard = sealedCard
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// MPGS token `status`. Tokens are stored only once their card passed verification, and a
/// declined update leaves the stored card as it was, so this gateway's tokens are `VALID`;
/// `INVALID` is the reference's other value, read back should a store hold it.
package enum TokenStatus: String, Sendable, Hashable, CaseIterable {
    case valid = "VALID"
    case invalid = "INVALID"
}

/// Where tokens live: in the same database as orders, so a token made on one replica pays on
/// any other. Like ``TransactionStore`` it decides nothing; every call names the merchant, so a
/// token is found only in its own merchant's repository.
package protocol TokenStore: Sendable {
    /// False when the merchant's repository already holds this token (the caller draws another).
    func insertToken(_ token: StoredToken) async throws -> Bool

    func token(merchantId: String, token: String) async throws -> StoredToken?

    /// Replaces the stored token's status, card and update time; false when it is not there.
    func replaceToken(_ token: StoredToken) async throws -> Bool

    /// False when there was no such token.
    func deleteToken(merchantId: String, token: String) async throws -> Bool
}
