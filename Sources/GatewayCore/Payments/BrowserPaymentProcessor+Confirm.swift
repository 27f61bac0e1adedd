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
            let (order, stored) = try await storedBrowserPayment(context)
            let pending = stored.receipt
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
            guard try await confirmations.recordConfirmation(confirmation) else { return try await lostRace(context) }
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

    /// The answer when the store wrote nothing: another replica changed the order or confirmed
    /// the payment first. Its confirmation's stored answer if it was this request (an identical
    /// retry that raced), else the refusal a later request would get.
    private func lostRace(_ context: TransactionContext) async throws -> ProcessedTransaction {
        let stored = try await store.transaction(
            merchantId: context.merchant.id,
            orderId: context.orderId,
            transactionId: context.transactionId
        )
        guard let stored, case .confirmed(let requestHash)? = stored.receipt.merchantConfirmation else {
            throw PaymentRejection.orderChanged
        }
        guard context.fingerprint.matches(requestHash) else { throw BrowserPaymentConfirmRefusal.alreadyConfirmed }
        return .replayed(stored.receipt, responseBody: stored.responseBody(in: context.encoding))
    }

    /// UPDATE_BROWSER_PAYMENT (issue 64): the browser payment as it stands at the provider, which
    /// for the simulated PayPal is as the payer's decision (and any confirmation) left it: no
    /// shipping address changes at the sandbox page. Records nothing; the answer is rendered for
    /// this request (its version and `correlationId`).
    package func update(_ echo: RequestEcho, _ context: TransactionContext) async throws -> ProcessedTransaction {
        var receipt = try await storedBrowserPayment(context).transaction.receipt
        receipt.version = context.version
        receipt.echo = RequestEcho(receipt.echo.json.overlaid(with: echo.json))
        return .replayed(receipt, responseBody: context.encoding.encode(receipt))
    }

    /// The order and the browser payment recorded under the request's ids, or the refusal that
    /// says which is missing.
    private func storedBrowserPayment(
        _ context: TransactionContext
    ) async throws -> (order: StoredOrder, transaction: StoredTransaction) {
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
        guard stored.receipt.browserPayment != nil, [.payment, .authorization].contains(stored.receipt.transactionType) else {
            throw BrowserPaymentConfirmRefusal.notBrowserPayment(context.transactionId)
        }
        return (order, stored)
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
