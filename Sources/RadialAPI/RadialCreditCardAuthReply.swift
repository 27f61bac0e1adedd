import GatewayCore

/// Radial answers in its own XML: the reply is rendered from the transaction's receipt, and
/// its bytes are what an identical retry through Radial gets.
struct RadialResponseEncoder: TransactionResponseEncoding {
    static let format = ResponseFormat(rawValue: "RADIAL_XML")

    /// The request's schema version decides which elements the reply carries.
    var schemaVersion: RadialSchemaVersion?

    var format: ResponseFormat { Self.format }

    func encode(_ receipt: TransactionReceipt) -> [UInt8] {
        XMLWriter.document(RadialCreditCardAuthReply(receipt, schemaVersion: schemaVersion).output)
    }

    /// Radial has no follow-on operations; an order it opened is captured through MPGS.
    func followOnEcho(_ request: RequestEcho, latest: RequestEcho) -> RequestEcho { request }
}

/// `CreditCardAuthReply`, from the authorization's receipt.
struct RadialCreditCardAuthReply: Sendable {
    var orderId: String
    var gatewayCode: GatewayCode
    var securityCode: SecurityCodeResult?
    var authorizationCode: String?
    var authorized: Amount
    var maskedNumber: String
    var brand: String
    var schemaVersion: RadialSchemaVersion?

    init(_ receipt: TransactionReceipt, schemaVersion: RadialSchemaVersion?) {
        orderId = receipt.orderId
        gatewayCode = receipt.outcome.gatewayCode
        securityCode = receipt.outcome.securityCodeResult
        authorizationCode = receipt.outcome.authorizationCode
        authorized = Amount(minorUnits: receipt.order.totalAuthorizedMinorUnits, currency: receipt.amount.currency)
        maskedNumber = receipt.card.maskedNumber
        brand = receipt.card.brand.brand
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
