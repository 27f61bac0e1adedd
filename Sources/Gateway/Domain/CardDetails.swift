import ApplePayToken

/// What the response says about the card: masked numbers only, never a cryptogram.
struct CardDetails: Sendable {
    struct Device: Sendable {
        var maskedNumber: String
        var expiry: CardExpiry
        var cryptogramFormat: String
    }

    var maskedNumber: String
    var brand: CardBrand
    var expiry: CardExpiry
    var nameOnCard: String?
    /// Apple Pay payments: the device account number and cryptogram format.
    var device: Device?

    var json: JSONValue {
        var card: [String: JSONValue] = [
            "brand": .string(brand.brand), "scheme": .string(brand.scheme), "fundingMethod": .string("UNKNOWN"),
            "number": .string(maskedNumber), "expiry": expiry.json, "storedOnFile": .string("NOT_STORED"),
        ]
        if let nameOnCard { card["nameOnCard"] = .string(nameOnCard) }
        if let device {
            card["encryption"] = .string("DEVICE")
            card["deviceSpecificNumber"] = .string(device.maskedNumber)
            card["deviceSpecificExpiry"] = device.expiry.json
            card["devicePayment"] = .object(["cryptogramFormat": .string(device.cryptogramFormat)])
        }
        return .object(["provided": .object(["card": .object(card)]), "type": .string("CARD")])
    }
}
