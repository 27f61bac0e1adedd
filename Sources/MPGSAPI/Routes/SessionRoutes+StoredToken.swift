import ApplePayToken
import GatewayCore
import WireJSON

extension SessionRoutes {
    /// What a session view says of a stored Apple Pay token, since the token itself is never
    /// shown: that one is stored and, while it can still be verified and decrypted (inside its
    /// signing window), the device card's masked number and expiry, as a payment would show them.
    /// Nothing is recorded: the token is checked for replay only when it pays.
    func describingStoredToken(_ view: JSONValue, content: JSONValue, merchant: Merchant) async -> JSONValue {
        guard case .string(let text)? = SessionContent.value(content, at: SessionContent.cardPath + ["devicePayment", "paymentToken"])
        else { return view }
        var card: [String: JSONValue] = [:]
        if case .object(let shown)? = SessionContent.value(view, at: SessionContent.cardPath) { card = shown }
        var device: [String: JSONValue] = [:]
        if case .object(let shown)? = card["devicePayment"] { device = shown }
        device["paymentToken"] = .string(Self.storedTokenMarker)
        if let token = try? PaymentToken(parsing: text), let decrypted = try? await decryptor.decrypt(token, using: merchant.keyRing) {
            let payment = decrypted.paymentData
            let expiry = Array(payment.applicationExpirationDate.utf8)
            card["deviceSpecificNumber"] = .string(CardNumberMask.mask(payment.applicationPrimaryAccountNumber))
            card["deviceSpecificExpiry"] = .object([
                "month": .string(String(decoding: expiry[2..<4], as: UTF8.self)),
                "year": .string(String(decoding: expiry[0..<2], as: UTF8.self)),
            ])
            device["cryptogramFormat"] = .string(payment.paymentDataType.rawValue.uppercased())
        }
        card["devicePayment"] = .object(device)
        return SessionContent.replacing(SessionContent.cardPath, in: view, with: .object(card))
    }

    /// Stands where the token was: a string, as the field is, that no one can take for a token.
    static let storedTokenMarker = "[stored, not shown]"
}
