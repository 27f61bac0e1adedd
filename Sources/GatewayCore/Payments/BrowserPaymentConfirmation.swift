import Foundation

/// Issue 64: a browser payment the merchant confirms on its own site (`paymentConfirmation`
/// CONFIRM_AT_MERCHANT), as its transaction records it. The payer's approval at PayPal records
/// the transaction pending and `awaiting`; the merchant's CONFIRM_BROWSER_PAYMENT (the same
/// transaction id, as the reference says) completes it and keeps its request's fingerprint, so
/// an identical retry gets the stored answer and any other is refused.
package enum MerchantConfirmation: Sendable, Hashable {
    case awaiting
    case confirmed(requestHash: [UInt8])

    /// As the stores keep it, beside the fingerprint.
    package enum Status: String, Sendable, Hashable, CaseIterable {
        case awaiting = "AWAITING_CONFIRMATION"
        case confirmed = "CONFIRMED"
    }

    package var status: Status {
        switch self {
        case .awaiting: .awaiting
        case .confirmed: .confirmed
        }
    }

    package var requestHash: [UInt8]? {
        if case .confirmed(let hash) = self { hash } else { nil }
    }

    /// The state a status and a stored fingerprint describe; nil when they disagree.
    package init?(status: Status, requestHash: [UInt8]?) {
        switch (status, requestHash) {
        case (.awaiting, nil): self = .awaiting
        case (.confirmed, let hash?): self = .confirmed(requestHash: hash)
        default: return nil
        }
    }
}

/// A CONFIRM_BROWSER_PAYMENT, validated. The reference lets the merchant change the amount
/// before confirming (shipping added once PayPal gave the address), never the currency.
package struct BrowserPaymentConfirmRequest: Sendable, Hashable {
    /// `order.currency`, when sent: it must be the payment's.
    package var currency: Currency?
    /// The new order amount (in `currency`); nil keeps the initiated one.
    package var amount: Amount?
    package var echo: RequestEcho

    package init(currency: Currency?, amount: Amount?, echo: RequestEcho = RequestEcho()) {
        self.currency = currency
        self.amount = amount
        self.echo = echo
    }
}

/// Why a CONFIRM_BROWSER_PAYMENT changed nothing, or an UPDATE_BROWSER_PAYMENT found no
/// payment (its refusals are the first three): one case per rule.
package enum BrowserPaymentConfirmRefusal: Error, Sendable, Hashable {
    /// No transaction on the merchant's orders has this order id.
    case orderNotFound(String)
    /// The order has no transaction with this id (the payer has not approved at PayPal yet, or
    /// the id is another).
    case transactionNotFound(String)
    /// The transaction is a card or wallet payment, a follow-on, ...: no browser payment.
    case notBrowserPayment(String)
    /// The payment was initiated with CONFIRM_AT_PROVIDER: the payer confirmed it at PayPal.
    case confirmedAtProvider
    /// The payer cancelled at PayPal: nothing was approved.
    case cancelledByPayer
    /// Another CONFIRM_BROWSER_PAYMENT confirmed it already.
    case alreadyConfirmed
    /// The confirmation names another currency than the payment's.
    case currencyChanged(Currency, paymentCurrency: Currency)
}

/// What confirming writes, as the core decided it: the transaction as confirmed (its receipt's
/// columns and the answer's bytes), the order as the confirmation leaves it on the version it was
/// decided on, and the notification. The stores write it only while the transaction still awaits
/// confirmation and the order is at that version.
package struct BrowserPaymentConfirmationRecord: Sendable {
    package var record: TransactionRecord
    /// The order's version the confirmation was decided on.
    package var expectedOrderVersion: Int64

    package init(record: TransactionRecord, expectedOrderVersion: Int64) {
        self.record = record
        self.expectedOrderVersion = expectedOrderVersion
    }
}

/// Where a confirmation is written. Both stores keep it in the transaction's own row (the same
/// transaction id) and the order's; they decide nothing.
package protocol BrowserPaymentConfirmationStore: Sendable {
    /// Writes the confirmed transaction's columns and response, the order and the notification,
    /// in one database transaction. False when the order moved from its expected version or the
    /// transaction no longer awaited confirmation (another replica confirmed it first): nothing
    /// was written.
    func recordConfirmation(_ confirmation: BrowserPaymentConfirmationRecord) async throws -> Bool
}
