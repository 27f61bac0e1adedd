import ApplePayToken
import Foundation
import GatewayCore
import WireJSON

/// Gateway tokens: made from a card (or a session's card), read back masked, used by payments.
/// The card is sealed before it reaches the store and opened only here, with the key that seals
/// sessions.
package struct TokenService: Sendable {
    /// A token with its card opened.
    struct OpenToken: Sendable {
        var stored: StoredToken
        var card: TokenCard
    }

    let store: any TokenStore
    /// Nil when no key is configured (production without `sessions.encryptionKey`): no tokens.
    let cipher: SessionCipher?
    let clock: @Sendable () -> Date

    package init(store: any TokenStore, cipher: SessionCipher?, clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.cipher = cipher
        self.clock = clock
    }

    /// Whether cards can be stored: the repository's seal is the session key.
    var isEnabled: Bool { cipher != nil }

    static let notEnabled = GatewayError(
        status: .notFound,
        cause: .invalidRequest,
        explanation: "Tokenization is not enabled on this gateway: configure sessions.encryptionKey (it seals stored cards too)"
    )

    /// How many fresh tokens are drawn before giving up on a repository that keeps colliding.
    private static let attempts = 8

    func create(merchantId: String, card: TokenCard, format: TokenFormat) async throws -> OpenToken {
        let cipher = try enabledCipher()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<Self.attempts {
            let token = format.generate(cardNumber: card.number, using: &generator)
            let stored = StoredToken.new(
                token: token,
                merchantId: merchantId,
                sealedCard: try seal(card, token: token, merchantId: merchantId, cipher),
                now: clock()
            )
            if try await store.insertToken(stored) { return OpenToken(stored: stored, card: card) }
        }
        throw TokenRepositoryFull()
    }

    /// The merchant's token, or nil (unknown, deleted, or another merchant's).
    func open(token: String, merchantId: String) async throws -> OpenToken? {
        let cipher = try enabledCipher()
        guard Self.isWellFormed(token), let stored = try await store.token(merchantId: merchantId, token: token) else { return nil }
        do {
            try stored.checkOwned(by: merchantId)
        } catch {
            return nil
        }
        let opened = try JSONValue(parsing: try cipher.open(stored.sealedCard, sessionId: Self.associatedData(token, merchantId)))
        guard let card = TokenCard(sealed: opened) else { throw UnreadableTokenCard() }
        return OpenToken(stored: stored, card: card)
    }

    /// Stores `card` against the token, by the core's rule for what an update may change.
    func update(_ token: OpenToken, card: TokenCard, format: TokenFormat) async throws -> OpenToken {
        let cipher = try enabledCipher()
        let stored = try token.stored.updated(
            sealedCard: try seal(card, token: token.stored.token, merchantId: token.stored.merchantId, cipher),
            cardNumber: card.number,
            storedCardNumber: token.card.number,
            format: format,
            now: clock()
        )
        guard try await store.replaceToken(stored) else { throw CardTokenRejection.notFound }
        return OpenToken(stored: stored, card: card)
    }

    func delete(token: String, merchantId: String) async throws -> Bool {
        _ = try enabledCipher()
        guard Self.isWellFormed(token) else { return false }
        return try await store.deleteToken(merchantId: merchantId, token: token)
    }

    /// A token as the request catalogue takes `sourceOfFunds.token`: 1-40 letters and digits.
    static func isWellFormed(_ token: String) -> Bool {
        (1...40).contains(token.utf8.count) && token.utf8.allSatisfy { $0.isASCIIDigit || (0x41...0x5A).contains($0 & 0xDF) }
    }

    private func enabledCipher() throws(GatewayError) -> SessionCipher {
        guard let cipher else { throw Self.notEnabled }
        return cipher
    }

    /// Merchant and token bind the sealed card to its row: a blob copied onto another token, or a
    /// session's onto a token, does not open.
    private static func associatedData(_ token: String, _ merchantId: String) -> String {
        "token:\(merchantId):\(token)"
    }

    private func seal(_ card: TokenCard, token: String, merchantId: String, _ cipher: SessionCipher) throws -> [UInt8] {
        try cipher.seal(card.sealedJSON.serialized(), sessionId: Self.associatedData(token, merchantId))
    }
}

/// Every draw of a new token met an existing one: the repository is nearly full.
struct TokenRepositoryFull: Error {}

/// A stored token whose sealed card opened but is not a card: a store written by something else.
struct UnreadableTokenCard: Error {}
