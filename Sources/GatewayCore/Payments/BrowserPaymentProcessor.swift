import Foundation
import Logging

/// Issue 64: records a browser payment once the payer has decided at the provider's page. The
/// transaction is written then, under the id INITIATE_BROWSER_PAYMENT named, so the store's
/// duplicate check makes the decision one-time: a second decision gets the first one's answer
/// when it is the same, and is refused when it is not.
package struct BrowserPaymentProcessor: Sendable {
    let environment: ProcessingEnvironment

    package init(_ environment: ProcessingEnvironment) {
        self.environment = environment
    }

    package var store: any TransactionStore { environment.store }

    /// The clock's time, to the millisecond the stores keep.
    package func now() -> Date { environment.now() }

    /// `context.fingerprint` is the initiating request's, so an identical INITIATE retried after
    /// the decision gets the decided transaction.
    package func decide(
        _ request: BrowserPaymentRequest,
        _ decision: PayerDecision,
        _ context: TransactionContext,
        logger: Logger
    ) async throws -> ProcessedTransaction {
        try await environment.locks.withLock("\(context.merchant.id)\u{0}\(context.orderId)") {
            let existing = try await store.order(merchantId: context.merchant.id, orderId: context.orderId)
            if let stored = try await store.transaction(
                merchantId: context.merchant.id,
                orderId: context.orderId,
                transactionId: context.transactionId
            ) {
                return try context.retry(stored)
            }
            if existing?.hasSuccessfulInitialTransaction == true { throw PaymentRejection.orderAlreadySucceeded }
            let record = self.record(request, decision, context, existingOrder: existing)
            return try await environment.commit(record, context, logger: logger)
        }
    }

    /// The transaction as decided on `existingOrder` (nil: a new order).
    package func record(
        _ request: BrowserPaymentRequest,
        _ decision: PayerDecision,
        _ context: TransactionContext,
        existingOrder: StoredOrder?
    ) -> TransactionRecord {
        let now = environment.now()
        let code = BrowserPaymentSimulator.gatewayCode(orderReference: request.orderReference, decision: decision)
        let outcome = AcquirerOutcome(
            gatewayCode: code,
            acquirerCode: code.result == .success ? "00" : nil,
            acquirerMessage: code.result == .success ? "Approved" : nil,
            authorizedMinorUnits: code.result == .success ? request.amount.minorUnits : 0
        )
        let order = OrderLedger.orderAfterInitial(
            outcome,
            operation: request.operation,
            amount: request.amount,
            walletProvider: nil,
            reference: request.orderReference,
            createdAt: existingOrder?.state.creationTime ?? now
        )
        var receipt = TransactionReceipt(
            merchantId: context.merchant.id,
            orderId: context.orderId,
            transactionId: context.transactionId,
            version: context.version,
            transactionType: request.operation.transactionType,
            amount: request.amount,
            transactionSource: request.transactionSource,
            transactionReference: request.transactionReference,
            targetTransactionId: nil,
            // No card paid: the provider did.
            card: CardDetails(maskedNumber: "", brand: CardBrand(name: "UNKNOWN"), expiry: nil, nameOnCard: nil),
            outcome: outcome,
            order: order,
            time: now,
            echo: request.echo
        )
        receipt.browserPayment = request.type
        return .orderOpening(
            receipt,
            operation: .browserPayment(.initiate),
            context: context,
            existingOrder: existingOrder,
            notificationURL: request.notificationURL
        )
    }
}
