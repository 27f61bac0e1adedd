import ApplePayToken
import Foundation
import GatewayCore

/// The MPGS transaction response body: what the core's receipts look like on the wire.
struct MPGSResponseEncoder: TransactionResponseEncoding {
    func encode(_ receipt: TransactionReceipt) -> [UInt8] {
        TransactionResponse(receipt).serialized()
    }
}

/// Builds the MPGS transaction response body.
struct TransactionResponse {
    var merchantId: String
    var orderId: String
    var transactionId: String
    var version: APIVersion
    var transactionType: TransactionType
    var amount: Amount
    var transactionSource: String
    var transactionReference: String?
    var targetTransactionId: String?
    /// The card, as the initial transaction's response described it.
    var sourceOfFunds: JSONValue
    var outcome: AcquirerOutcome
    var order: OrderState
    var time: Date
    /// What the response returns of the request, over the order's description from its latest
    /// response (follow-ons): billing, customer, shipping, order.description, ...
    var echo: JSONValue

    init(_ receipt: TransactionReceipt) {
        merchantId = receipt.merchantId
        orderId = receipt.orderId
        transactionId = receipt.transactionId
        version = receipt.version
        transactionType = receipt.transactionType
        amount = receipt.amount
        transactionSource = receipt.transactionSource
        transactionReference = receipt.transactionReference
        targetTransactionId = receipt.targetTransactionId
        switch receipt.card {
        case .details(let card):
            sourceOfFunds = card.json
        case .asFirstRecorded(let body):
            // The card is the order's: as the first transaction's response described it.
            sourceOfFunds = body.flatMap { try? JSONValue(parsing: $0) }?["sourceOfFunds"] ?? .object([:])
        }
        outcome = receipt.outcome
        order = receipt.order
        time = receipt.time
        let catalogue = RequestCatalogue.transactionRequest
        let earlier = receipt.earlierResponseBody.flatMap { try? JSONValue(parsing: $0) }.map(catalogue.orderEcho) ?? .object([:])
        echo = earlier.overlaid(with: receipt.echo.json)
    }

    /// The body's bytes: the gateway's members laid over the echo (what the gateway decided wins
    /// over what the request said), written without a dictionary between, in the bytes
    /// `JSONValue.serialized()` gives for the same object.
    func serialized() -> [UInt8] {
        members.laid(over: echo).serialized()
    }

    private var members: JSONMembers {
        let currency = amount.currency
        func money(_ minorUnits: Int64) -> JSONValue { .double(Amount(minorUnits: minorUnits, currency: currency).majorUnits) }
        let timeText = Timestamp.string(time)
        let timestamp = JSONValue.string(timeText)

        var orderJSON = order.jsonMembers(orderId: orderId, lastUpdated: timeText)
        orderJSON.set("authenticationStatus", .string("AUTHENTICATION_NOT_IN_EFFECT"))
        orderJSON.set("certainty", .string("FINAL"))

        var transaction = JSONMembers([
            "id": .string(transactionId), "type": .string(transactionType.rawValue),
            "amount": money(amount.minorUnits), "currency": .string(currency.code),
            "source": .string(transactionSource),
            "authenticationStatus": .string("AUTHENTICATION_NOT_IN_EFFECT"),
        ])
        transaction.set(
            "acquirer",
            JSONMembers([
                "id": .string("SIMULATOR_ACQUIRER"), "merchantId": .string(merchantId),
                "batch": .integer(Int64(Timestamp.batch(time))),
            ])
        )
        if let reference = transactionReference { transaction.set("reference", .string(reference)) }
        if let target = targetTransactionId { transaction.set("targetTransactionId", .string(target)) }

        var response = JSONMembers([
            "gatewayCode": .string(outcome.gatewayCode.rawValue),
            "gatewayRecommendation": .string(outcome.succeeded ? "PROCEED" : "DO_NOT_PROCEED"),
        ])
        if let code = outcome.acquirerCode { response.set("acquirerCode", .string(code)) }
        if let message = outcome.acquirerMessage { response.set("acquirerMessage", .string(message)) }
        if let csc = outcome.securityCodeResult {
            response.set("cardSecurityCode", .object(["gatewayCode": .string(csc.rawValue)]))
        }

        var body = JSONMembers([
            "merchant": .string(merchantId), "result": .string(outcome.result.rawValue),
            "sourceOfFunds": sourceOfFunds, "timeOfRecord": timestamp,
            "timeOfLastUpdate": timestamp, "version": .string(version.description),
            "gatewayEntryPoint": .string("WEB_SERVICES_API"),
        ])
        body.set("response", response)
        body.set("order", orderJSON)
        if let authorizationCode = outcome.authorizationCode, let receipt = outcome.receipt, let stan = outcome.stan {
            transaction.set("authorizationCode", .string(authorizationCode))
            transaction.set("receipt", .string(receipt))
            transaction.set("stan", .string(stan))
            body.set(
                "authorizationResponse",
                .object(["stan": .string(stan), "responseCode": .string(outcome.acquirerCode ?? "00")])
            )
        }
        body.set("transaction", transaction)
        return body
    }
}
