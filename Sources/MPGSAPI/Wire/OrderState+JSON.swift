import ApplePayToken
import Foundation
import GatewayCore
import WireJSON

extension OrderState {
    /// The order's fields as MPGS returns them, in a transaction response's `order` and at the
    /// top of a retrieved order. Amounts are JSON numbers in major units.
    func jsonFields(orderId: String, lastUpdatedTime: Date) -> [String: JSONValue] {
        jsonMembers(orderId: orderId, lastUpdatedTime: lastUpdatedTime).dictionary
    }

    func jsonMembers(orderId: String, lastUpdatedTime: Date) -> JSONMembers {
        jsonMembers(orderId: orderId, lastUpdated: Timestamp.string(lastUpdatedTime))
    }

    /// With the last update's time already written (a transaction response writes it three times).
    func jsonMembers(orderId: String, lastUpdated: String) -> JSONMembers {
        let currency = Currency(code: self.currency)
        func money(_ minorUnits: Int64) -> JSONValue {
            currency.map { .double(Amount(minorUnits: minorUnits, currency: $0).majorUnits) } ?? .integer(minorUnits)
        }
        var fields = JSONMembers([
            "id": .string(orderId), "amount": money(amountMinorUnits), "currency": .string(self.currency),
            "merchantAmount": money(amountMinorUnits), "merchantCurrency": .string(self.currency),
            "creationTime": .string(Timestamp.string(creationTime)), "lastUpdatedTime": .string(lastUpdated),
            "status": .string(status.rawValue),
            "totalAuthorizedAmount": money(totalAuthorizedMinorUnits),
            "totalCapturedAmount": money(totalCapturedMinorUnits),
            "totalRefundedAmount": money(totalRefundedMinorUnits), "totalDisbursedAmount": money(0),
        ])
        if let walletProvider { fields.set("walletProvider", .string(walletProvider)) }
        if let reference { fields.set("reference", .string(reference)) }
        return fields
    }
}
