import ApplePayToken
import Foundation

/// Builds the MPGS transaction response body.
struct TransactionResponse {
    var merchantId: String
    var orderId: String
    var transactionId: String
    var version: String
    /// AUTHORIZATION, PAYMENT, CAPTURE, REFUND, VOID_AUTHORIZATION, ...
    var transactionType: String
    var amount: Amount
    var transactionSource: String
    var transactionReference: String?
    var targetTransactionId: String?
    /// The card, as the initial transaction's response described it.
    var sourceOfFunds: JSONValue
    var outcome: AcquirerOutcome
    var order: OrderState
    var time: Date

    var json: JSONValue {
        let currency = amount.currency
        func money(_ minorUnits: Int64) -> JSONValue { .double(Amount(minorUnits: minorUnits, currency: currency).jsonNumber) }
        let timestamp = JSONValue.string(Timestamp.string(time))

        var orderJSON = order.jsonFields(orderId: orderId, lastUpdatedTime: time)
        orderJSON["authenticationStatus"] = .string("AUTHENTICATION_NOT_IN_EFFECT")
        orderJSON["certainty"] = .string("FINAL")

        var transaction: [String: JSONValue] = [
            "id": .string(transactionId), "type": .string(transactionType),
            "amount": money(amount.minorUnits), "currency": .string(currency.code),
            "source": .string(transactionSource),
            "acquirer": .object([
                "id": .string("SIMULATOR_ACQUIRER"), "merchantId": .string(merchantId),
                "batch": .integer(Int64(Timestamp.batch(time))),
            ]),
            "authenticationStatus": .string("AUTHENTICATION_NOT_IN_EFFECT"),
        ]
        if let reference = transactionReference { transaction["reference"] = .string(reference) }
        if let target = targetTransactionId { transaction["targetTransactionId"] = .string(target) }

        var response: [String: JSONValue] = [
            "gatewayCode": .string(outcome.gatewayCode),
            "gatewayRecommendation": .string(outcome.succeeded ? "PROCEED" : "DO_NOT_PROCEED"),
        ]
        if let code = outcome.acquirerCode { response["acquirerCode"] = .string(code) }
        if let message = outcome.acquirerMessage { response["acquirerMessage"] = .string(message) }
        if let csc = outcome.securityCodeResult {
            response["cardSecurityCode"] = .object(["gatewayCode": .string(csc)])
        }

        var body: [String: JSONValue] = [
            "merchant": .string(merchantId), "result": .string(outcome.result), "response": .object(response),
            "order": .object(orderJSON), "sourceOfFunds": sourceOfFunds, "timeOfRecord": timestamp,
            "timeOfLastUpdate": timestamp, "version": .string(version),
            "gatewayEntryPoint": .string("WEB_SERVICES_API"),
        ]
        if let authorizationCode = outcome.authorizationCode, let receipt = outcome.receipt, let stan = outcome.stan {
            transaction["authorizationCode"] = .string(authorizationCode)
            transaction["receipt"] = .string(receipt)
            transaction["stan"] = .string(stan)
            body["authorizationResponse"] = .object([
                "stan": .string(stan), "responseCode": .string(outcome.acquirerCode ?? "00"),
            ])
        }
        body["transaction"] = .object(transaction)
        return .object(body)
    }
}

enum Timestamp {
    /// ISO 8601 in UTC with milliseconds, as MPGS writes times.
    static func string(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
            .replacingOccurrences(of: "+0000", with: "Z")
    }

    /// The acquirer batch: the UTC date as yyyyMMdd.
    static func batch(_ date: Date) -> Int {
        let calendar = Calendar(identifier: .gregorian)
        var utc = calendar
        utc.timeZone = TimeZone(identifier: "UTC")!
        let parts = utc.dateComponents([.year, .month, .day], from: date)
        return (parts.year ?? 0) * 10000 + (parts.month ?? 0) * 100 + (parts.day ?? 0)
    }
}
