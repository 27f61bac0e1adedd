import GatewayCore
import Logging

extension GatewayRoutes {
    /// AUTHORIZE, PAY or VERIFY as the API and the hosted payment page both make it: the session
    /// the request names is laid under it and claimed, a stored card's token resolved, and the
    /// core decides. A session whose payment succeeded is used up; after anything else it can pay
    /// again.
    func payInitial(
        _ reader: RequestReader,
        shape: FieldShape,
        operation: PaymentRequest.Operation,
        _ transaction: PaymentProcessor.Context,
        revealing: Bool = false,
        logger: Logger
    ) async throws -> (ProcessedTransaction, RevealedCard?) {
        var reader = reader
        var session: SessionService.OpenSession?
        if let sessionId = reader.text("session.id") {
            let opened = try await paymentSession(sessionId, merchant: transaction.merchant, version: reader.text("session.version"))
            reader = RequestReader(checked: SessionContent.merged(opened.content, reader.root))
            session = try await sessions.claimForPayment(opened)
        }
        // A token's card is laid under the request (and the session's content): the core sees a card.
        let storedCard: (reader: RequestReader, token: String)?
        var payment: PaymentRequest
        do {
            storedCard = try await resolvingStoredCard(reader, merchant: transaction.merchant)
            payment = try PaymentRequest.reading(storedCard?.reader ?? reader, operation: operation)
        } catch {
            if let session { await release(session, logger: logger) }
            throw error
        }
        // What the session held is echoed as if the request had sent it.
        let catalogue = RequestCatalogue.transactionRequest
        payment.echo = RequestEcho(catalogue.echo(of: reader.root, shape: shape))
        if let storedCard { payment.echo = payment.echo.naming(token: storedCard.token) }
        let processed: ProcessedTransaction
        var revealed: RevealedCard?
        do {
            if revealing {
                (processed, revealed) = try await processor.processRevealing(payment, transaction, logger: logger)
            } else {
                processed = try await processor.process(payment, transaction, logger: logger)
            }
        } catch {
            if let session { await release(session, logger: logger) }
            throw error
        }
        if let session { await retireIfUsed(session, processed, logger: logger) }
        return (processed, revealed)
    }
}
