import Foundation
import Logging

/// CAPTURE, REFUND, VOID and UPDATE_AUTHORIZATION: decided against the order as stored, one at a
/// time per order, and stored before they are answered.
package struct OrderOperationProcessor: Sendable {
    let environment: ProcessingEnvironment

    /// How often a transaction is decided again when another replica changed its order first.
    static let decisionAttempts = 5

    package init(_ environment: ProcessingEnvironment) {
        self.environment = environment
    }

    /// A follow-on without its own `order.notificationUrl` goes where the order's earlier ones went.
    private func notification(_ request: FollowOnRequest, _ context: TransactionContext) async throws -> QueuedNotification? {
        guard let settings = context.merchant.notifications else { return nil }
        var orderURL: String?
        if request.notificationURL == nil, let outbox = environment.outbox {
            orderURL = try await outbox.orderNotificationURL(merchantId: context.merchant.id, orderId: context.orderId)
        }
        return QueuedNotification.route(requestURL: request.notificationURL, orderURL: orderURL, merchant: settings)
    }

    package func process(_ request: FollowOnRequest, _ context: TransactionContext, logger: Logger) async throws -> ProcessedTransaction {
        try await environment.locks.withLock(context.orderKey) {
            // The lock above covers this process only. When another replica records on the order
            // between our read and our write, the store refuses ours (.orderChanged); deciding
            // again on the order as it now stands gives the client the answer it would have got
            // had the requests come one after the other (the simulated acquirer has no side
            // effects to undo). Only a persistent race reaches the client as a rejection.
            var attempt = 1
            while true {
                do {
                    return try await processLocked(request, context, logger: logger)
                } catch PaymentRejection.orderChanged where attempt < Self.decisionAttempts {
                    logger.debug("order changed by another replica; deciding again", metadata: ["attempt": "\(attempt)"])
                    attempt += 1
                }
            }
        }
    }

    private func processLocked(
        _ request: FollowOnRequest,
        _ context: TransactionContext,
        logger: Logger
    )
        async throws -> ProcessedTransaction
    {
        let merchantId = context.merchant.id
        if let stored = try await environment.store.transaction(
            merchantId: merchantId,
            orderId: context.orderId,
            transactionId: context.transactionId
        ) {
            return try context.retry(stored)
        }
        guard let order = try await environment.store.order(merchantId: merchantId, orderId: context.orderId),
            Currency(code: order.state.currency) != nil
        else { throw PaymentRejection.orderNotFound(context.orderId) }
        let transactions = try await environment.store.transactions(merchantId: merchantId, orderId: context.orderId)
        // Every recorded order has its first transaction: the order row is written with it.
        guard let first = transactions.first?.receipt, let latest = transactions.last?.receipt else {
            throw PaymentRejection.orderNotFound(context.orderId)
        }
        try RiskReviewRule.check(request, orderId: context.orderId, transactions: transactions)
        let plan = try OrderLedger.plan(request, order: order.state, transactions: transactions)

        let outcome = await context.merchant.acquirer.processFollowOn(type: plan.type, amount: plan.amount)
        let state = OrderLedger.orderAfterFollowOn(plan, outcome, order: order.state)
        let now = environment.now()
        var receipt = TransactionReceipt(
            merchantId: merchantId,
            orderId: context.orderId,
            transactionId: context.transactionId,
            version: context.version,
            transactionType: plan.type,
            amount: plan.amount,
            transactionSource: request.transactionSource,
            transactionReference: request.transactionReference,
            targetTransactionId: plan.targetTransactionId,
            card: first.card,
            outcome: outcome,
            order: state,
            time: now,
            echo: context.encoding.followOnEcho(request.echo, latest: latest.echo)
        )
        // The order stays authenticated as its payment was (3-D Secure), as it keeps its card.
        receipt.authentication = transactions.last { $0.receipt.authentication != nil }?.receipt.authentication
        receipt.browserPayment = first.browserPayment
        receipt.storedOnFile = first.storedOnFile
        var record = TransactionRecord(
            receipt: receipt,
            operation: request.operation.apiOperation,
            requestHash: context.fingerprint.value,
            response: StoredResponse(format: context.encoding.format, bytes: context.encoding.encode(receipt)),
            eciIndicator: nil,
            applePayReplay: nil,
            isInitial: false,
            voidsTarget: plan.voidsTarget && outcome.succeeded,
            expectedOrderVersion: order.version
        )
        record.notification = try await notification(request, context)
        return try await environment.commit(record, context, logger: logger)
    }
}
