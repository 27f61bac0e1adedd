import ApplePayToken
import GatewayCore

/// `CreditCardAuthReply`, from the stored MPGS response of the authorization (the same body a
/// retry is answered from), so a first answer and a retried one are the same reply.
struct RadialCreditCardAuthReply: Sendable {
    var orderId: String
    var gatewayCode: GatewayCode
    var securityCode: SecurityCodeResult?
    var authorizationCode: String?
    var authorized: Amount
    var maskedNumber: String
    var brand: String
    var schemaVersion: RadialSchemaVersion?

    /// Reads the fields the reply needs from the transaction's MPGS response.
    init(orderId: String, mpgsResponse: [UInt8], schemaVersion: RadialSchemaVersion?) throws(RadialFault) {
        guard let json = try? JSONValue(parsing: mpgsResponse),
            case .string(let code)? = json["response"]?["gatewayCode"], let gatewayCode = GatewayCode(rawValue: code),
            case .string(let currencyCode)? = json["transaction"]?["currency"], let currency = Currency(code: currencyCode)
        else { throw RadialFault(.serverFailed, "the stored transaction could not be read") }
        self.orderId = orderId
        self.gatewayCode = gatewayCode
        if case .string(let text)? = json["response"]?["cardSecurityCode"]?["gatewayCode"] {
            securityCode = SecurityCodeResult(rawValue: text)
        }
        if case .string(let text)? = json["transaction"]?["authorizationCode"] { authorizationCode = text }
        let scale = Double(Amount.powerOfTen(currency.exponent))
        var authorizedMajor = 0.0
        switch json["order"]?["totalAuthorizedAmount"] {
        case .double(let value)?: authorizedMajor = value
        case .integer(let value)?: authorizedMajor = Double(value)
        default: break
        }
        authorized = Amount(minorUnits: Int64((authorizedMajor * scale).rounded()), currency: currency)
        let card = json["sourceOfFunds"]?["provided"]?["card"]
        if case .string(let number)? = card?["number"] { maskedNumber = number } else { maskedNumber = "" }
        if case .string(let text)? = card?["brand"] { brand = text } else { brand = "UNKNOWN" }
        self.schemaVersion = schemaVersion
    }

    var output: XMLOutput {
        let codes = RadialResponseCodes(gatewayCode, securityCode: securityCode)
        var children = [
            XMLOutput(
                "PaymentContext",
                children: [
                    XMLOutput("OrderId", text: orderId),
                    // The card number masked to its first six and last four digits stands for the token.
                    XMLOutput("PaymentAccountUniqueId", attributes: [("isToken", "true")], text: maskedNumber),
                ]
            )
        ]
        // Seed 002: ResponseCode from SchemaVersion 1.1, TenderType from 1.2.
        if let schemaVersion, schemaVersion >= RadialSchemaVersion(1, 1) {
            children.append(XMLOutput("ResponseCode", text: codes.responseCode))
        }
        children += [
            XMLOutput("AuthorizationResponseCode", text: codes.authorizationResponseCode),
            XMLOutput("BankAuthorizationCode", text: authorizationCode ?? ""),
            XMLOutput("CVV2ResponseCode", text: codes.cvv2ResponseCode),
            XMLOutput("AVSResponseCode", text: codes.avsResponseCode),
            XMLOutput("AmountAuthorized", attributes: [("currencyCode", authorized.currency.code)], text: authorized.text),
        ]
        if let schemaVersion, schemaVersion >= RadialSchemaVersion(1, 2) {
            children.append(XMLOutput("TenderType", text: RadialResponseCodes.tenderType(brand: brand)))
        }
        return XMLOutput("CreditCardAuthReply", attributes: [("xmlns", RadialNamespace.checkout)], children: children)
    }
}
