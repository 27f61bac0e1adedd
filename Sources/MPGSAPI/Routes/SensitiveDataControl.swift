import GatewayCore
import WireJSON

/// Issue 32: `responseControls.sensitiveData`. UNMASK asks for the full device account number and
/// card number in an AUTHORIZE or PAY response, which the gateway gives only to a call
/// authenticated by certificate; a password-authenticated call is refused before anything is
/// processed. The full numbers go into the response being returned, never into the store.
enum SensitiveDataControl: String {
    case unmask = "UNMASK"

    static let field = "responseControls.sensitiveData"

    /// The request's choice; nil when it makes none.
    static func read(_ reader: RequestReader, credential: MerchantAuthentication.Credential) throws(GatewayError) -> Self? {
        guard let text = reader.text(field) else { return nil }
        guard let control = Self(rawValue: text) else {
            throw GatewayError.invalidValue(field, text, "Value must be UNMASK")
        }
        guard credential == .certificate else {
            throw GatewayError.invalidValue(
                field,
                text,
                "Unmasked card numbers are returned only to calls authenticated by SSL certificate"
            )
        }
        return control
    }

    /// The response with the card's full numbers in place of the masked ones: the device account
    /// number in `deviceSpecificNumber` for a device payment, and in `number` the card number the
    /// acquirer was sent (the simulated acquirer maps no DPAN to an FPAN, so for a device payment
    /// that is the DPAN too).
    static func unmasked(_ body: [UInt8], revealing card: RevealedCard) -> [UInt8] {
        guard case .object(var root)? = try? JSONValue(parsing: body),
            case .object(var sourceOfFunds)? = root["sourceOfFunds"],
            case .object(var provided)? = sourceOfFunds["provided"],
            case .object(var details)? = provided["card"]
        else { return body }
        details["number"] = .string(card.number)
        if card.isDevice, details["deviceSpecificNumber"] != nil {
            details["deviceSpecificNumber"] = .string(card.number)
        }
        provided["card"] = .object(details)
        sourceOfFunds["provided"] = .object(provided)
        root["sourceOfFunds"] = .object(sourceOfFunds)
        return JSONValue.object(root).serialized()
    }
}
