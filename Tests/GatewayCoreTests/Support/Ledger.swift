import Foundation
import GatewayCore

/// Small builders for ledger tests: orders and transactions in US dollars.
enum Ledger {
    static let usd = Currency(code: "USD")!
    static let eur = Currency(code: "EUR")!

    static func dollars(_ cents: Int64, _ currency: Currency = usd) -> Amount {
        Amount(minorUnits: cents, currency: currency)
    }

    static func order(
        _ status: OrderStatus,
        authorized: Int64 = 0,
        captured: Int64 = 0,
        refunded: Int64 = 0
    ) -> OrderState {
        OrderState(
            amountMinorUnits: max(authorized, 1),
            currency: "USD",
            status: status,
            totalAuthorizedMinorUnits: authorized,
            totalCapturedMinorUnits: captured,
            totalRefundedMinorUnits: refunded,
            walletProvider: nil,
            reference: nil,
            creationTime: Date(milliseconds: 1_700_000_000_000)
        )
    }

    static func transaction(
        _ id: String,
        _ type: TransactionType,
        _ cents: Int64,
        succeeded: Bool = true,
        voided: Bool = false
    ) -> TransactionSummary {
        let amount = dollars(cents)
        return TransactionSummary(
            receipt: TransactionReceipt(
                merchantId: "M",
                orderId: "o",
                transactionId: id,
                version: .latest,
                transactionType: type,
                amount: amount,
                transactionSource: "INTERNET",
                transactionReference: nil,
                targetTransactionId: nil,
                card: CardDetails(
                    maskedNumber: "512345xxxxxx0008",
                    brand: CardBrand(name: "MASTERCARD"),
                    expiry: CardExpiry(month: 1, year: 39),
                    nameOnCard: nil
                ),
                outcome: AcquirerOutcome(gatewayCode: succeeded ? .approved : .declined, authorizedMinorUnits: cents),
                order: order(.captured, authorized: cents, captured: cents),
                time: Date(milliseconds: 1_700_000_000_000),
                echo: RequestEcho()
            ),
            voided: voided
        )
    }

    static func capture(_ cents: Int64, _ currency: Currency = usd) -> FollowOnRequest {
        FollowOnRequest(operation: .capture, amount: dollars(cents, currency), targetTransactionId: nil)
    }

    static func refund(_ cents: Int64, target: String? = nil) -> FollowOnRequest {
        FollowOnRequest(operation: .refund, amount: dollars(cents), targetTransactionId: target)
    }

    /// UPDATE_AUTHORIZATION to a new total of `cents`.
    static func update(_ cents: Int64, _ currency: Currency = usd) -> FollowOnRequest {
        FollowOnRequest(operation: .updateAuthorization, amount: dollars(cents, currency), targetTransactionId: nil)
    }

    static func void(_ target: String?) -> FollowOnRequest {
        FollowOnRequest(operation: .void, amount: nil, targetTransactionId: target)
    }

    static let approved = AcquirerOutcome(gatewayCode: .approved, authorizedMinorUnits: 0)
    static let declined = AcquirerOutcome(gatewayCode: .declined, authorizedMinorUnits: 0)
}
