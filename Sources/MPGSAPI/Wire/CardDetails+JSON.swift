import ApplePayToken
import GatewayCore
import WireJSON

extension CardDetails {
    /// The response's `sourceOfFunds`: masked numbers only, never a cryptogram.
    var json: JSONValue { json(storedOnFile: .notStored) }

    /// As ``json``, with the `storedOnFile` the payment sent (issue 64).
    func json(storedOnFile: StoredOnFile) -> JSONValue {
        var card: [String: JSONValue] = [
            "brand": .string(brand.brand), "scheme": .string(brand.scheme), "fundingMethod": .string("UNKNOWN"),
            "number": .string(maskedNumber), "storedOnFile": .string(storedOnFile.rawValue),
        ]
        if let expiry { card["expiry"] = expiry.json }
        if let nameOnCard { card["nameOnCard"] = .string(nameOnCard) }
        if let device {
            card["encryption"] = .string("DEVICE")
            card["deviceSpecificNumber"] = .string(device.maskedNumber)
            card["deviceSpecificExpiry"] = device.expiry.json
            card["devicePayment"] = .object(["cryptogramFormat": .string(device.cryptogramFormat.rawValue)])
        }
        return .object(["provided": .object(["card": .object(card)]), "type": .string("CARD")])
    }
}
