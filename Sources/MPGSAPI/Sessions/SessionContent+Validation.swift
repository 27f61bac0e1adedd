import ApplePayToken
import Foundation
import GatewayCore
import WireJSON

extension SessionContent {
    /// What an update may not put into a session: the same field errors a payment would give,
    /// given now, while the payer can still correct them. Checked on the merged content, since an
    /// amount and its currency may come in different updates.
    static func validate(_ content: JSONValue) throws(GatewayError) {
        let reader = RequestReader(checked: content)
        if let currency = reader.value("order.currency"), currency.stringValue == nil {
            throw GatewayError.invalid("order.currency", "Value for 'order.currency' must be a string")
        }
        if let code = reader.text("order.currency") {
            guard let currency = Currency(code: code) else {
                throw GatewayError.invalidValue("order.currency", code, "Currency is not supported")
            }
            if reader.text("order.amount") != nil { _ = try Amount.reading(reader, "order.amount", currency) }
        }
        let walletProvider = try reader.walletProvider()
        if let type = reader.text("sourceOfFunds.type"), type != "CARD" {
            throw GatewayError.unsupported("sourceOfFunds.type", type, "Only CARD is supported")
        }
        let card = "sourceOfFunds.provided.card"
        if reader.text("\(card).number") != nil { _ = try PaymentRequest.cardNumber(reader) }
        _ = try PaymentRequest.securityCode(reader)
        let devicePayment = "\(card).devicePayment"
        if let format = reader.value("\(devicePayment).cryptogramFormat"), format != .string("3DSECURE"), format != .string("EMV") {
            throw GatewayError.invalid("\(devicePayment).cryptogramFormat", "Value for '\(devicePayment).cryptogramFormat' must be 3DSECURE or EMV")
        }
        if let applicationData = reader.value("\(devicePayment).applicationData") {
            guard case .string(let text) = applicationData, Data(base64Encoded: text) != nil else {
                throw GatewayError.invalid(
                    "\(devicePayment).applicationData",
                    "applicationData must be the base64 text given to the Apple Pay payment request"
                )
            }
        }
        let tokenField = "\(devicePayment).paymentToken"
        // Read as the wallet the session names; without one (it may come in a later update), as
        // the token's own shape says: Google's has a protocolVersion, Apple's a version.
        if let token = reader.value(tokenField) {
            if walletProvider == .googlePay || (walletProvider == nil && Self.looksLikeGooglePay(token)) {
                _ = try PaymentRequest.parsedGooglePayToken(token, field: tokenField)
            } else {
                _ = try PaymentRequest.parsedToken(token, field: tokenField)
            }
        }
    }

    private static func looksLikeGooglePay(_ token: JSONValue) -> Bool {
        switch token {
        case .object(let members): return members["protocolVersion"] != nil
        case .string(let text): return text.contains("\"protocolVersion\"")
        default: return false
        }
    }
}

extension SessionContent {
    /// A session body names what the session holds: a `null` would read as "absent" and be
    /// stored as nothing, so it is refused, naming the field.
    static func refuseNulls(_ value: JSONValue, path: String = "") throws(GatewayError) {
        switch value {
        case .null:
            throw GatewayError.invalid(path, "Value for '\(path)' must not be null")
        case .object(let members):
            for (name, member) in members {
                try refuseNulls(member, path: path.isEmpty ? name : "\(path).\(name)")
            }
        default:
            return
        }
    }
}
