import Foundation
import Logging

/// Issue 64: records a browser payment once the payer has decided at the provider's page. The
/// transaction is written then, under the id INITIATE_BROWSER_PAYMENT named, so the store's
/// duplicate check makes the decision one-time: a second decision gets the first one's answer
/// when it is the same, and is refused when it is not.
package struct BrowserPaymentProcessor: Sendable {
    let environment: ProcessingEnvironment
    /// Where CONFIRM_BROWSER_PAYMENT writes (the same database); nil: a store without it.
    let confirmations: (any BrowserPaymentConfirmationStore)?

    package init(_ environment: ProcessingEnvironment, confirmations: (any BrowserPaymentConfirmationStore)? = nil) {
        self.environment = environment
        self.confirmations = confirmations
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
        // Approved for the merchant to confirm: pending until CONFIRM_BROWSER_PAYMENT, which
        // gets the provider's outcome.
        let awaitsMerchant = request.confirmation == .atMerchant && decision == .approved
        let code =
            awaitsMerchant
            ? .submitted : BrowserPaymentSimulator.gatewayCode(orderReference: request.orderReference, decision: decision)
        let outcome = Self.outcome(code, amount: request.amount)
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
        if awaitsMerchant { receipt.merchantConfirmation = .awaiting }
        return .orderOpening(
            receipt,
            operation: .browserPayment(.initiate),
            context: context,
            existingOrder: existingOrder,
            notificationURL: request.notificationURL
        )
    }

    /// The provider's answer as the acquirer's outcome: approved ones authorize the whole amount.
    static func outcome(_ code: GatewayCode, amount: Amount) -> AcquirerOutcome {
        AcquirerOutcome(
            gatewayCode: code,
            acquirerCode: code.result == .success ? "00" : nil,
            acquirerMessage: code.result == .success ? "Approved" : nil,
            authorizedMinorUnits: code.result == .success ? amount.minorUnits : 0
        )
    }
}
