import ApplePayToken
import Foundation
import Logging

/// CAPTURE, REFUND and VOID: decided against the order as stored, one at a time per order, and
/// stored before they are answered.
struct OrderOperationProcessor: Sendable {
    let store: any TransactionStore
    let locks: OrderLocks
    let clock: @Sendable () -> Date
    let metrics: GatewayMetrics

    /// How often a transaction is decided again when another replica changed its order first.
    static let decisionAttempts = 5

    func process(_ request: FollowOnRequest, _ context: PaymentProcessor.Context, logger: Logger) async throws -> [UInt8] {
        try await locks.withLock("\(context.merchant.id)\u{0}\(context.orderId)") {
            // The lock above covers this process only. When another replica records on the order
            // between our read and our write, the store refuses ours (LOCK_FAILURE); deciding
            // again on the order as it now stands gives the client the answer it would have got
            // had the requests come one after the other (the simulated acquirer has no side
            // effects to undo). Only a persistent race reaches the client as a 409.
            var attempt = 1
            while true {
                do {
                    return try await processLocked(request, context, logger: logger)
                } catch let error as GatewayError
                    where error.explanation == GatewayError.lockFailure.explanation && attempt < Self.decisionAttempts
                {
                    logger.debug("order changed by another replica; deciding again", metadata: ["attempt": "\(attempt)"])
                    attempt += 1
                }
            }
        }
    }

    private func processLocked(
        _ request: FollowOnRequest,
        _ context: PaymentProcessor.Context,
        logger: Logger
    )
        async throws -> [UInt8]
    {
        let merchantId = context.merchant.id
        if let stored = try await store.transaction(
            merchantId: merchantId,
            orderId: context.orderId,
            transactionId: context.transactionId
        ) {
            return try PaymentProcessor.retry(stored, context)
        }
        guard let order = try await store.order(merchantId: merchantId, orderId: context.orderId),
            let currency = Currency(code: order.state.currency)
        else { throw GatewayError.notFound("No order '\(context.orderId)'") }
        let transactions = try await store.transactions(merchantId: merchantId, orderId: context.orderId)
        let plan = try OrderLedger.plan(request, order: order, transactions: transactions)
        let amount = Amount(minorUnits: plan.amountMinorUnits, currency: currency)

        let outcome = await context.merchant.acquirer.processFollowOn(type: plan.type, amount: amount)
        let totals =
            outcome.succeeded
            ? plan.totalsIfApproved
            : OrderLedger.Totals(
                authorized: order.state.totalAuthorizedMinorUnits,
                captured: order.state.totalCapturedMinorUnits,
                refunded: order.state.totalRefundedMinorUnits
            )
        let now = Date(milliseconds: clock().milliseconds)
        let state = OrderState(
            amountMinorUnits: order.state.amountMinorUnits,
            currency: order.state.currency,
            status: outcome.succeeded ? OrderLedger.status(totals) : order.state.status,
            totalAuthorizedMinorUnits: totals.authorized,
            totalCapturedMinorUnits: totals.captured,
            totalRefundedMinorUnits: totals.refunded,
            walletProvider: order.state.walletProvider,
            reference: order.state.reference,
            creationTime: order.state.creationTime
        )
        // The card is the order's: as the first transaction's response described it.
        let sourceOfFunds =
            transactions.first.flatMap { try? JSONValue(parsing: $0.responseBody) }?["sourceOfFunds"] ?? .object([:])
        let body = TransactionResponse(
            merchantId: merchantId,
            orderId: context.orderId,
            transactionId: context.transactionId,
            version: context.version,
            transactionType: plan.type,
            amount: amount,
            transactionSource: request.transactionSource,
            transactionReference: request.transactionReference,
            targetTransactionId: plan.targetTransactionId,
            sourceOfFunds: sourceOfFunds,
            outcome: outcome,
            order: state,
            time: now
        ).json.serialized()

        let record = TransactionRecord(
            merchantId: merchantId,
            orderId: context.orderId,
            transactionId: context.transactionId,
            operation: request.operation.rawValue,
            requestHash: context.requestHash,
            responseBody: body,
            result: outcome.result,
            gatewayCode: outcome.gatewayCode,
            amountMinorUnits: amount.minorUnits,
            currency: currency.code,
            succeeded: outcome.succeeded,
            eciIndicator: nil,
            applePayTransactionId: nil,
            time: now,
            isInitial: false,
            transactionType: plan.type,
            targetTransactionId: plan.targetTransactionId,
            voidsTarget: plan.voidsTarget && outcome.succeeded,
            expectedOrderVersion: order.version,
            order: state
        )
        return try await store.commit(record, context, logger: logger, metrics: metrics)
    }
}
