import ApplePayToken
import Foundation

extension OrderState {
    /// The order's fields as MPGS returns them, in a transaction response's `order` and at the
    /// top of a retrieved order. Amounts are JSON numbers in major units.
    func jsonFields(orderId: String, lastUpdatedTime: Date) -> [String: JSONValue] {
        let currency = Currency(code: self.currency)
        func money(_ minorUnits: Int64) -> JSONValue {
            currency.map { .double(Amount(minorUnits: minorUnits, currency: $0).majorUnits) } ?? .integer(minorUnits)
        }
        var fields: [String: JSONValue] = [
            "id": .string(orderId), "amount": money(amountMinorUnits), "currency": .string(self.currency),
            "merchantAmount": money(amountMinorUnits), "merchantCurrency": .string(self.currency),
            "creationTime": .string(Timestamp.string(creationTime)),
            "lastUpdatedTime": .string(Timestamp.string(lastUpdatedTime)), "status": .string(status.rawValue),
            "totalAuthorizedAmount": money(totalAuthorizedMinorUnits),
            "totalCapturedAmount": money(totalCapturedMinorUnits),
            "totalRefundedAmount": money(totalRefundedMinorUnits), "totalDisbursedAmount": money(0),
        ]
        if let walletProvider { fields["walletProvider"] = .string(walletProvider) }
        if let reference { fields["reference"] = .string(reference) }
        return fields
    }
}
