import Foundation

/// An order's amount, totals and status, as they stand after a transaction.
package struct OrderState: Sendable, Hashable {
    package var amountMinorUnits: Int64
    /// ISO 4217 alphabetic code.
    package var currency: String
    package var status: OrderStatus
    package var totalAuthorizedMinorUnits: Int64
    package var totalCapturedMinorUnits: Int64
    package var totalRefundedMinorUnits: Int64
    package var walletProvider: String?
    package var reference: String?
    package var creationTime: Date

    package init(
        amountMinorUnits: Int64,
        currency: String,
        status: OrderStatus,
        totalAuthorizedMinorUnits: Int64,
        totalCapturedMinorUnits: Int64,
        totalRefundedMinorUnits: Int64,
        walletProvider: String?,
        reference: String?,
        creationTime: Date
    ) {
        self.amountMinorUnits = amountMinorUnits
        self.currency = currency
        self.status = status
        self.totalAuthorizedMinorUnits = totalAuthorizedMinorUnits
        self.totalCapturedMinorUnits = totalCapturedMinorUnits
        self.totalRefundedMinorUnits = totalRefundedMinorUnits
        self.walletProvider = walletProvider
        self.reference = reference
        self.creationTime = creationTime
    }

    package var totals: OrderLedger.Totals {
        get {
            OrderLedger.Totals(
                authorized: totalAuthorizedMinorUnits,
                captured: totalCapturedMinorUnits,
                refunded: totalRefundedMinorUnits
            )
        }
        set {
            totalAuthorizedMinorUnits = newValue.authorized
            totalCapturedMinorUnits = newValue.captured
            totalRefundedMinorUnits = newValue.refunded
        }
    }
}
