import ApplePayToken
import Foundation
import GatewayCore
import WireJSON

/// Sessions: created by the merchant's server, filled by the payer's device (or the merchant),
/// read by a payment. Content is sealed before it reaches the store and opened only here.
package struct SessionService: Sendable {
    /// A session with its content opened.
    struct OpenSession: Sendable {
        var stored: StoredSession
        var content: JSONValue
        /// Returned at creation, as the gateway's `session.aes256Key`.
        var aes256Key: String
        /// A checkout session's settings (INITIATE_CHECKOUT's `interaction` and the rest the
        /// hosted payment page needs); nil for other sessions.
        var checkout: CheckoutSettings? = nil

        var id: String { stored.id }
    }

    let store: any SessionStore
    /// Nil when no key is configured (production without `sessions.encryptionKey`): no sessions.
    let cipher: SessionCipher?
    let lifetime: TimeInterval
    let clock: @Sendable () -> Date

    package init(
        store: any SessionStore,
        cipher: SessionCipher?,
        lifetime: TimeInterval,
        clock: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.cipher = cipher
        self.lifetime = lifetime
        self.clock = clock
    }

    static let notEnabled = GatewayError(
        status: .notFound,
        cause: .invalidRequest,
        explanation: "Sessions are not enabled on this gateway: configure sessions.encryptionKey"
    )

    func create(
        merchantId: String,
        content: JSONValue,
        authenticationLimit: Int,
        checkout: CheckoutSettings? = nil
    ) async throws -> OpenSession {
        let cipher = try enabledCipher()
        let now = clock()
        // Expired sessions go with their contents whenever a new one is made.
        try await store.deleteSessions(expiredBefore: now)
        var generator = SystemRandomNumberGenerator()
        let key = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        var session = OpenSession(
            stored: StoredSession.new(
                id: SessionIdentifiers.newSessionId(),
                merchantId: merchantId,
                version: SessionIdentifiers.newVersion(),
                hasContent: content != .object([:]),
                authenticationLimit: authenticationLimit,
                now: now,
                lifetime: lifetime
            ),
            content: content,
            aes256Key: Data(key).base64EncodedString(),
            checkout: checkout
        )
        session.stored.sealedContent = try seal(session, cipher)
        try await store.insertSession(session.stored)
        return session
    }

    /// The merchant's live session, or nil. An expired session found here is deleted.
    func open(id: String, merchantId: String) async throws -> OpenSession? {
        try await open(id: id, merchantId: Optional(merchantId))
    }

    /// The live session with this id whoever's it is, for the payer's browser, whose only
    /// credential is the id: the session says which merchant it belongs to.
    func openForPayer(id: String) async throws -> OpenSession? {
        try await open(id: id, merchantId: nil)
    }

    private func open(id: String, merchantId: String?) async throws -> OpenSession? {
        let cipher = try enabledCipher()
        guard SessionIdentifiers.isWellFormed(id), let stored = try await store.session(id: id) else { return nil }
        switch stored.access(by: merchantId ?? stored.merchantId, at: clock()) {
        case .live: break
        case .anotherMerchant: return nil
        case .expired:
            try await store.deleteSession(id: id)
            return nil
        }
        let sealed = try JSONValue(parsing: try cipher.open(stored.sealedContent, sessionId: id))
        return OpenSession(
            stored: stored,
            content: sealed["content"] ?? .object([:]),
            aes256Key: sealed["aes256Key"]?.stringValue ?? "",
            checkout: sealed["checkout"].flatMap(CheckoutSettings.init(stored:))
        )
    }

    /// Lays `content` over the session's and gives it a new version; refused when another update
    /// changed the session since it was opened.
    func update(_ session: OpenSession, with content: JSONValue) async throws -> OpenSession {
        let cipher = try enabledCipher()
        try session.stored.checkUpdatable()
        var updated = session
        updated.content = SessionContent.merged(session.content, content)
        updated.stored = session.stored.updated(sealedContent: try seal(updated, cipher), version: SessionIdentifiers.newVersion())
        guard try await store.replaceSession(updated.stored, expectedVersion: session.stored.version) else {
            throw SessionRejection.concurrentUpdate
        }
        return updated
    }

    /// Takes the session for one payment before it is processed (see
    /// ``StoredSession/claimedForPayment(version:)``).
    func claimForPayment(_ session: OpenSession) async throws -> OpenSession {
        var claimed = session
        claimed.stored = session.stored.claimedForPayment(version: SessionIdentifiers.newVersion())
        guard try await store.replaceSession(claimed.stored, expectedVersion: session.stored.version) else {
            throw SessionRejection.inUse
        }
        return claimed
    }

    /// After a payment that did not succeed: the session can pay again. Nothing happens if the
    /// payer updated it meanwhile.
    func release(_ claimed: OpenSession) async throws {
        let released = claimed.stored.released(version: SessionIdentifiers.newVersion())
        _ = try await store.replaceSession(released, expectedVersion: claimed.stored.version)
    }

    func delete(id: String) async throws {
        try await store.deleteSession(id: id)
    }

    private func enabledCipher() throws(GatewayError) -> SessionCipher {
        guard let cipher else { throw Self.notEnabled }
        return cipher
    }

    private func seal(_ session: OpenSession, _ cipher: SessionCipher) throws -> [UInt8] {
        var members: [String: JSONValue] = ["content": session.content, "aes256Key": .string(session.aes256Key)]
        if let checkout = session.checkout { members["checkout"] = checkout.stored }
        let plaintext = JSONValue.object(members)
        return try cipher.seal(plaintext.serialized(), sessionId: session.id)
    }
}
