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

    /// One answer for an unknown, expired or another merchant's session: nothing tells them apart.
    static let notFound = GatewayError.notFound("Session not found or expired")

    static let concurrentUpdate = GatewayError(
        status: .conflict,
        cause: .requestRejected,
        explanation: "The session was updated by another request at the same time; retry the request"
    )

    func create(merchantId: String, content: JSONValue, authenticationLimit: Int) async throws -> OpenSession {
        let cipher = try enabledCipher()
        let now = clock()
        // Expired sessions go with their contents whenever a new one is made.
        try await store.deleteSessions(expiredBefore: now)
        var generator = SystemRandomNumberGenerator()
        let key = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        var session = OpenSession(
            stored: StoredSession(
                id: SessionIdentifiers.newSessionId(),
                merchantId: merchantId,
                version: SessionIdentifiers.newVersion(),
                updateStatus: content == .object([:]) ? .noUpdate : .success,
                authenticationLimit: authenticationLimit,
                sealedContent: [],
                createdAt: now,
                expiresAt: now.addingTimeInterval(lifetime)
            ),
            content: content,
            aes256Key: Data(key).base64EncodedString()
        )
        session.stored.sealedContent = try seal(session, cipher)
        try await store.insertSession(session.stored)
        return session
    }

    /// The merchant's live session, or nil. An expired session found here is deleted.
    func open(id: String, merchantId: String) async throws -> OpenSession? {
        let cipher = try enabledCipher()
        guard SessionIdentifiers.isWellFormed(id), let stored = try await store.session(id: id),
            stored.merchantId == merchantId
        else { return nil }
        guard stored.expiresAt > clock() else {
            try await store.deleteSession(id: id)
            return nil
        }
        let sealed = try JSONValue(parsing: try cipher.open(stored.sealedContent, sessionId: id))
        return OpenSession(
            stored: stored,
            content: sealed["content"] ?? .object([:]),
            aes256Key: sealed["aes256Key"]?.stringValue ?? ""
        )
    }

    /// Lays `content` over the session's and gives it a new version; refused when another update
    /// changed the session since it was opened.
    func update(_ session: OpenSession, with content: JSONValue) async throws -> OpenSession {
        let cipher = try enabledCipher()
        var updated = session
        updated.content = SessionContent.merged(session.content, content)
        updated.stored.version = SessionIdentifiers.newVersion()
        updated.stored.updateStatus = .success
        updated.stored.sealedContent = try seal(updated, cipher)
        guard try await store.replaceSession(updated.stored, expectedVersion: session.stored.version) else {
            throw Self.concurrentUpdate
        }
        return updated
    }

    /// Takes the session for one payment before it is processed: a new version, written only if
    /// the session is still at the version it was opened at, so of several payments racing for
    /// one session exactly one goes on (the others get ``inUse``), and a session that paid once
    /// cannot pay again.
    func claimForPayment(_ session: OpenSession) async throws -> OpenSession {
        var claimed = session
        claimed.stored.version = SessionIdentifiers.newVersion()
        claimed.stored.updateStatus = .claimedForPayment
        guard try await store.replaceSession(claimed.stored, expectedVersion: session.stored.version) else {
            throw Self.inUse
        }
        return claimed
    }

    /// After a payment that did not succeed: the session can pay again (the payer may put
    /// another card into it first). Nothing happens if the payer updated it meanwhile.
    func release(_ claimed: OpenSession) async throws {
        var released = claimed
        released.stored.version = SessionIdentifiers.newVersion()
        released.stored.updateStatus = .success
        _ = try await store.replaceSession(released.stored, expectedVersion: claimed.stored.version)
    }

    static let inUse = GatewayError.invalid(
        "session.id",
        "The session is being used by another payment, or has been updated since it was read"
    )

    func delete(id: String) async throws {
        try await store.deleteSession(id: id)
    }

    private func enabledCipher() throws(GatewayError) -> SessionCipher {
        guard let cipher else { throw Self.notEnabled }
        return cipher
    }

    private func seal(_ session: OpenSession, _ cipher: SessionCipher) throws -> [UInt8] {
        let plaintext = JSONValue.object(["content": session.content, "aes256Key": .string(session.aes256Key)])
        return try cipher.seal(plaintext.serialized(), sessionId: session.id)
    }
}
