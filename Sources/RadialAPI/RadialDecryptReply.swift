import ApplePayToken
import GatewayCore

/// `DecryptReply`: the decrypted payment data, in the elements a `CreditCardAuthRequest` takes
/// them back in (`PaymentAccountUniqueId` with `isToken="false"`, `ExpirationDate` as YYYY-MM,
/// `Amount` with `currencyCode`), plus the cryptogram and ECI. The element names are this
/// gateway's choice: Radial publishes no schema for the Decrypt request.
struct RadialDecryptReply: Sendable {
    var token: DecryptedPaymentToken

    var output: XMLOutput {
        let payment = token.paymentData
        var children = [
            XMLOutput("ApplePayTransactionId", text: token.transactionId),
            XMLOutput("PaymentAccountUniqueId", attributes: [("isToken", "false")], text: payment.applicationPrimaryAccountNumber),
        ]
        // applicationExpirationDate is YYMMDD (the library checked its digits).
        let date = payment.applicationExpirationDate
        children.append(XMLOutput("ExpirationDate", text: "20\(date.prefix(2))-\(date.dropFirst(2).prefix(2))"))
        if let currency = Currency(numericCode: payment.currencyCode) {
            let amount = Amount(minorUnits: payment.transactionAmount, currency: currency)
            children.append(XMLOutput("Amount", attributes: [("currencyCode", currency.code)], text: amount.text))
        } else {
            children.append(
                XMLOutput("TransactionAmount", attributes: [("currencyCode", payment.currencyCode)], text: String(payment.transactionAmount))
            )
        }
        children.append(XMLOutput("PaymentDataType", text: payment.paymentDataType.rawValue))
        switch payment.details {
        case .threeDSecure(let details):
            children.append(XMLOutput("OnlinePaymentCryptogram", text: details.onlinePaymentCryptogram))
            if let eci = details.eciIndicator { children.append(XMLOutput("ECI", text: eci)) }
        case .emv(let details):
            children.append(XMLOutput("EmvData", text: details.emvData))
        }
        if let name = payment.cardholderName { children.append(XMLOutput("CardholderName", text: name)) }
        if let device = payment.deviceManufacturerIdentifier {
            children.append(XMLOutput("DeviceManufacturerIdentifier", text: device))
        }
        return XMLOutput("DecryptReply", attributes: [("xmlns", RadialNamespace.checkout)], children: children)
    }
}
