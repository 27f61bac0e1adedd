import Foundation
import GatewayCore
import WireJSON

/// An initiated browser payment, between INITIATE_BROWSER_PAYMENT and the payer's decision at
/// the provider's page (issue 64). Nothing is stored until the payer decides: the payer's
/// browser carries the interaction in the page's URL, sealed with the session key (AES-GCM), so
/// any replica opens it and nobody can change the amount or the return URL on the way.
struct BrowserPaymentInteraction: Sendable, Hashable {
    var merchantId: String
    var orderId: String
    var transactionId: String
    var version: APIVersion
    var request: BrowserPaymentRequest
    /// The initiating request's fingerprint: the decided transaction is recorded under it.
    var requestHash: [UInt8]
    var initiatedAt: Date

    /// What the seal authenticates besides the content: a sealed session does not open as this.
    private static let associatedData = "browser-payment"

    func sealed(with cipher: SessionCipher) throws -> String {
        let json = JSONValue.object([
            "merchant": .string(merchantId), "order": .string(orderId), "transaction": .string(transactionId),
            "version": .integer(Int64(version.number)), "operation": .string(request.operation.rawValue),
            "type": .string(request.type.rawValue), "amount": .integer(request.amount.minorUnits),
            "currency": .string(request.amount.currency.code), "orderReference": request.orderReference.map(JSONValue.string) ?? .null,
            "transactionReference": request.transactionReference.map(JSONValue.string) ?? .null,
            "source": .string(request.transactionSource), "returnUrl": .string(request.returnURL),
            "notificationUrl": request.notificationURL.map(JSONValue.string) ?? .null, "echo": request.echo.json,
            "confirmation": .string(request.confirmation.rawValue),
            "hash": .string(Data(requestHash).base64EncodedString()), "initiated": .integer(initiatedAt.milliseconds),
        ])
        let sealed = try cipher.seal(json.serialized(), sessionId: Self.associatedData)
        return Data(sealed).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The interaction a sealed text holds; nil for anything this gateway did not seal.
    static func open(_ text: String, with cipher: SessionCipher) -> BrowserPaymentInteraction? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let sealed = Data(base64Encoded: base64),
            let plain = try? cipher.open(Array(sealed), sessionId: associatedData),
            let json = try? JSONValue(parsing: plain),
            let merchantId = json["merchant"]?.stringValue, let orderId = json["order"]?.stringValue,
            let transactionId = json["transaction"]?.stringValue,
            case .integer(let versionNumber)? = json["version"], let version = APIVersion(String(versionNumber)),
            let operation = json["operation"]?.stringValue.flatMap(PaymentRequest.Operation.init(rawValue:)),
            let type = json["type"]?.stringValue.flatMap(BrowserPaymentType.init(rawValue:)),
            case .integer(let minorUnits)? = json["amount"],
            let currency = json["currency"]?.stringValue.flatMap(Currency.init(code:)),
            let source = json["source"]?.stringValue, let returnURL = json["returnUrl"]?.stringValue,
            let hash = json["hash"]?.stringValue.flatMap({ Data(base64Encoded: $0) }),
            case .integer(let initiated)? = json["initiated"]
        else { return nil }
        return BrowserPaymentInteraction(
            merchantId: merchantId,
            orderId: orderId,
            transactionId: transactionId,
            version: version,
            request: BrowserPaymentRequest(
                operation: operation,
                type: type,
                amount: Amount(minorUnits: minorUnits, currency: currency),
                orderReference: json["orderReference"]?.stringValue,
                transactionReference: json["transactionReference"]?.stringValue,
                transactionSource: source,
                returnURL: returnURL,
                notificationURL: json["notificationUrl"]?.stringValue,
                // Sealed before CONFIRM_AT_MERCHANT was offered: confirmed at PayPal.
                confirmation: json["confirmation"]?.stringValue.flatMap(PaymentConfirmation.init(rawValue:)) ?? .atProvider,
                echo: RequestEcho(json["echo"] ?? .object([:]))
            ),
            requestHash: Array(hash),
            initiatedAt: Date(milliseconds: initiated)
        )
    }

    /// The request's echo with `browserPayment.interaction` as the payer's return leaves it.
    func echo(returnedAt: Date) -> RequestEcho {
        let interaction = JSONValue.object([
            "status": .string("RETURNED_TO_MERCHANT"),
            "timeInitiated": .string(Timestamp.string(initiatedAt)),
            "timeReturned": .string(Timestamp.string(returnedAt)),
        ])
        return RequestEcho(request.echo.json.overlaid(with: .object(["browserPayment": .object(["interaction": interaction])])))
    }
}
