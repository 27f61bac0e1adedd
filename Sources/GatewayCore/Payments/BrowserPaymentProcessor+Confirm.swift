import Foundation
import Logging
import WireJSON

extension BrowserPaymentProcessor {
    /// CONFIRM_BROWSER_PAYMENT (issue 64): completes the CONFIRM_AT_MERCHANT payment the payer
    /// approved at PayPal, under its own transaction id, with the provider's outcome (the
    /// simulator's, by the order's reference, as a payment confirmed at PayPal gets). Once: an
    /// identical retry gets the stored answer; anything else is refused and changes nothing.
    package func confirm(
        _ request: BrowserPaymentConfirmRequest,
        _ context: TransactionContext,
        logger: Logger
    ) async throws -> ProcessedTransaction {
        try await environment.locks.withLock("\(context.merchant.id)\u{0}\(context.orderId)") {
            guard let order = try await store.order(merchantId: context.merchant.id, orderId: context.orderId) else {
                throw BrowserPaymentConfirmRefusal.orderNotFound(context.orderId)
            }
            guard
                let stored = try await store.transaction(
                    merchantId: context.merchant.id,
                    orderId: context.orderId,
                    transactionId: context.transactionId
                )
            else { throw BrowserPaymentConfirmRefusal.transactionNotFound(context.transactionId) }
            let pending = stored.receipt
            guard pending.browserPayment != nil, [.payment, .authorization].contains(pending.transactionType) else {
                throw BrowserPaymentConfirmRefusal.notBrowserPayment(context.transactionId)
            }
            switch pending.merchantConfirmation {
            case nil:
                throw pending.outcome.gatewayCode == .cancelled
                    ? BrowserPaymentConfirmRefusal.cancelledByPayer : BrowserPaymentConfirmRefusal.confirmedAtProvider
            case .confirmed(let requestHash)?:
                guard context.fingerprint.matches(requestHash) else { throw BrowserPaymentConfirmRefusal.alreadyConfirmed }
                return .replayed(pending, responseBody: stored.responseBody(in: context.encoding))
            case .awaiting?:
                break
            }
            // Another payment (a card's) completed the order while this one waited.
            if order.hasSuccessfulInitialTransaction { throw PaymentRejection.orderAlreadySucceeded }
            if let currency = request.amount?.currency ?? request.currency, currency != pending.amount.currency {
                throw BrowserPaymentConfirmRefusal.currencyChanged(currency, paymentCurrency: pending.amount.currency)
            }
            let amount = request.amount ?? pending.amount
            guard let confirmations else { throw PaymentRejection.orderChanged }
            let confirmation = try await self.confirmation(of: stored, order, amount: amount, request, context)
            guard try await confirmations.recordConfirmation(confirmation) else { throw PaymentRejection.orderChanged }
            let record = confirmation.record
            environment.observer.transactionRecorded(operation: record.operation, gatewayCode: record.gatewayCode)
            logger.info(
                "browser payment confirmed",
                metadata: [
                    "merchant": "\(record.merchantId)", "orderId": "\(record.orderId)", "transactionId": "\(record.transactionId)",
                    "gatewayCode": "\(record.gatewayCode.rawValue)",
                ]
            )
            if record.notification != nil {
                environment.justRecorded?.remember(record)
                environment.notificationDoorbell?.ring()
            }
            return .recorded(record)
        }
    }

    /// The transaction as confirmed on `order`: the provider's outcome for the (possibly new)
    /// amount, the order after it, this request's fingerprint kept for its retries, and the
    /// notification where the order's go.
    private func confirmation(
        of stored: StoredTransaction,
        _ order: StoredOrder,
        amount: Amount,
        _ request: BrowserPaymentConfirmRequest,
        _ context: TransactionContext
    ) async throws -> BrowserPaymentConfirmationRecord {
        var receipt = stored.receipt
        let code = BrowserPaymentSimulator.gatewayCode(orderReference: order.state.reference, decision: .approved)
        let outcome = Self.outcome(code, amount: amount)
        receipt.outcome = outcome
        receipt.amount = amount
        receipt.version = context.version
        receipt.time = environment.now()
        receipt.order = OrderLedger.orderAfterInitial(
            outcome,
            operation: receipt.transactionType == .authorization ? .authorize : .pay,
            amount: amount,
            walletProvider: nil,
            reference: order.state.reference,
            createdAt: order.state.creationTime
        )
        receipt.echo = RequestEcho(receipt.echo.json.overlaid(with: request.echo.json))
        receipt.merchantConfirmation = .confirmed(requestHash: context.fingerprint.value)
        var record = TransactionRecord(
            receipt: receipt,
            operation: .browserPayment(.confirm),
            // The row keeps the initiating request's fingerprint: an identical INITIATE, retried,
            // still gets the transaction as it now stands.
            requestHash: stored.requestHash,
            response: StoredResponse(format: context.encoding.format, bytes: context.encoding.encode(receipt)),
            eciIndicator: nil,
            applePayReplay: nil,
            isInitial: true,
            voidsTarget: false,
            expectedOrderVersion: order.version
        )
        let orderURL = try await environment.outbox?.orderNotificationURL(merchantId: context.merchant.id, orderId: context.orderId)
        record.notification = QueuedNotification.route(requestURL: nil, orderURL: orderURL, merchant: context.merchant.notifications)
        return BrowserPaymentConfirmationRecord(record: record, expectedOrderVersion: order.version)
    }
}
