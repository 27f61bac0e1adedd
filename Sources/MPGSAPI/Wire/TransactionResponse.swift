import ApplePayToken
import Foundation
import GatewayCore
import WireJSON

/// The MPGS transaction response body: what the core's receipts look like on the wire.
struct MPGSResponseEncoder: TransactionResponseEncoding {
    static let format = ResponseFormat(rawValue: "MPGS_JSON")

    var format: ResponseFormat { Self.format }

    func encode(_ receipt: TransactionReceipt) -> [UInt8] {
        TransactionResponse(receipt).serialized()
    }

    /// A follow-on repeats the order's description (billing, customer, order.description, ...)
    /// as its latest transaction left it, under what this request sends.
    func followOnEcho(_ request: RequestEcho, latest: RequestEcho) -> RequestEcho {
        RequestEcho(RequestCatalogue.transactionRequest.orderEcho(of: latest.json).overlaid(with: request.json))
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
    var card: CardDetails
    var outcome: AcquirerOutcome
    var order: OrderState
    var time: Date
    /// What the response returns of the request, over the order's description as its latest
    /// transaction left it (follow-ons): billing, customer, shipping, order.description, ...
    var echo: JSONValue
    var authentication: PaymentAuthentication?
    var risk: JSONValue?
    var browserPayment: BrowserPaymentType?
    var storedOnFile: StoredOnFile?

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
        card = receipt.card
        outcome = receipt.outcome
        order = receipt.order
        time = receipt.time
        echo = receipt.echo.json
        authentication = receipt.authentication
        risk = RiskAssessment.json(receipt)
        browserPayment = receipt.browserPayment
        storedOnFile = receipt.storedOnFile
    }

    /// A card's summary, or the provider a browser payment went through (issue 64).
    private var sourceOfFunds: JSONValue {
        guard let browserPayment else { return card.json(storedOnFile: storedOnFile ?? .notStored) }
        return .object(["type": .string("BROWSER_PAYMENT"), "browserPayment": .object(["type": .string(browserPayment.rawValue)])])
    }

    /// The body's bytes: the gateway's members laid over the echo (what the gateway decided wins
    /// over what the request said), written without a dictionary between, in the bytes
    /// `JSONValue.serialized()` gives for the same object.
    func serialized() -> [UInt8] {
        members.laid(over: echo).serialized()
    }

    /// The body as a value, for Retrieve Order's list of transactions.
    var jsonValue: JSONValue {
        members.laid(over: echo).jsonValue
    }

    private var members: JSONMembers {
        let currency = amount.currency
        func money(_ minorUnits: Int64) -> JSONValue { .double(Amount(minorUnits: minorUnits, currency: currency).majorUnits) }
        let timeText = Timestamp.string(time)
        let timestamp = JSONValue.string(timeText)

        var orderJSON = order.jsonMembers(orderId: orderId, lastUpdated: timeText)
        let authenticationStatus = JSONValue.string(authentication?.status.rawValue ?? "AUTHENTICATION_NOT_IN_EFFECT")
        orderJSON.set("authenticationStatus", authenticationStatus)
        orderJSON.set("certainty", .string("FINAL"))

        var transaction = JSONMembers([
            "id": .string(transactionId), "type": .string(transactionType.rawValue),
            "amount": money(amount.minorUnits), "currency": .string(currency.code),
            "source": .string(transactionSource),
            "authenticationStatus": authenticationStatus,
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
        if let authentication {
            for (name, value) in AuthenticationResponse.paymentMembers(authentication) { body.set(name, value) }
        }
        if let risk { body.set("risk", risk) }
        return body
    }
}
