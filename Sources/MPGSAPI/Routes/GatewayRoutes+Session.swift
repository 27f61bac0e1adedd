import ApplePayToken
import GatewayCore
import Logging

extension GatewayRoutes {
    /// The session an AUTHORIZE, PAY or VERIFY names, if the core's rules let a payment use it;
    /// a rejection names the request's `session.id` or `session.version`.
    func paymentSession(
        _ sessionId: String,
        merchant: Merchant,
        version: String?
    ) async throws
        -> SessionService.OpenSession
    {
        guard let session = try await sessions.open(id: sessionId, merchantId: merchant.id) else {
            throw SessionRejection.notFound.inPayment
        }
        do {
            try session.stored.checkPayable(version: version)
        } catch {
            throw error.inPayment
        }
        return session
    }

    /// What the payment's outcome does to the session it claimed, by the core's rule
    /// (``StoredSession/afterPayment(recordedSuccess:)``). A failed delete only leaves the
    /// session to expire.
    func retireIfUsed(_ session: SessionService.OpenSession, _ processed: ProcessedTransaction, logger: Logger) async {
        guard StoredSession.afterPayment(recordedSuccess: processed.recordedSuccess) == .delete else {
            return await release(session, logger: logger)
        }
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
