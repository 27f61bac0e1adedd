import Foundation
import GatewayCore

extension OrderState {
    /// The order a row of `orders` holds: the same columns in both stores, read by one decoder.
    init(row: some StoredRow) throws {
        self.init(
            amountMinorUnits: try row.integer("amount_minor"),
            currency: try row.text("currency"),
            status: try StoredColumn.decode(OrderStatus.self, try row.text("status"), column: "orders.status"),
            totalAuthorizedMinorUnits: try row.integer("total_authorized_minor"),
            totalCapturedMinorUnits: try row.integer("total_captured_minor"),
            totalRefundedMinorUnits: try row.integer("total_refunded_minor"),
            walletProvider: try row.optionalText("wallet_provider"),
            reference: try row.optionalText("reference"),
            creationTime: Date(milliseconds: try row.integer("created_at_ms"))
        )
    }
}
