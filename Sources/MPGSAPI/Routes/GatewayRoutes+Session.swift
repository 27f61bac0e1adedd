import ApplePayToken
import GatewayCore
import Logging

extension GatewayRoutes {
    /// The session an AUTHORIZE, PAY or VERIFY names: this merchant's, live, successfully
    /// updated, and at the version the request gives, if it gives one.
    func paymentSession(
        _ sessionId: String,
        merchant: Merchant,
        version: String?
    ) async throws
        -> SessionService.OpenSession
    {
        guard let session = try await sessions.open(id: sessionId, merchantId: merchant.id) else {
            throw Self.paymentSessionNotFound
        }
        if session.stored.updateStatus == .claimedForPayment { throw SessionService.inUse }
        guard session.stored.updateStatus == .success else {
            throw Self.paymentSessionNotUpdated(session.stored.updateStatus.rawValue)
        }
        if let version, version != session.stored.version { throw Self.staleSessionVersion(version) }
        return session
    }

    static let paymentSessionNotFound = GatewayError.invalid("session.id", "Session not found or expired")

    static func paymentSessionNotUpdated(_ updateStatus: String) -> GatewayError {
        .invalid("session.id", "The session holds no successful update (updateStatus \(updateStatus))")
    }

    static func staleSessionVersion(_ version: String) -> GatewayError {
        .invalidValue("session.version", version, "The session has been updated since this version")
    }

    /// A session that paid successfully is deleted with its card data; after a decline it stays,
    /// so the payer can put another card into it. A replayed answer paid nothing with this claim
    /// (the session was claimed after the store had no answer), so it releases the session too.
    /// A failed delete only leaves the session to expire.
    func retireIfUsed(_ session: SessionService.OpenSession, _ processed: ProcessedTransaction, logger: Logger) async {
        guard processed.recordedSuccess else { return await release(session, logger: logger) }
        do {
            try await sessions.delete(id: session.id)
        } catch {
            logger.warning("a used session could not be deleted; it will expire", metadata: ["error": "\(type(of: error))"])
        }
    }

    /// A claimed session whose payment did not succeed can pay again; a failed release only
    /// leaves it to expire.
    func release(_ session: SessionService.OpenSession, logger: Logger) async {
        do {
            try await sessions.release(session)
        } catch {
            logger.warning("a session could not be released after its payment; it will expire", metadata: ["error": "\(type(of: error))"])
        }
    }
}
