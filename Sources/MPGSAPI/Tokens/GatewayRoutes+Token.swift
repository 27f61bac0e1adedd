import GatewayCore
import WireJSON

extension GatewayRoutes {
    /// The body with the card of the `sourceOfFunds.token` it names laid under it, field by field:
    /// the reference's precedence puts request fields (and a session's, already merged) over the
    /// token's, so a security code collected in a session joins the token's number and expiry.
    /// The core then sees a plain card. Nil when the body names no token. Apple Pay data beside a
    /// token is refused before the token is read: the reference pays a token as a stored
    /// credential, without a cryptogram, and laying a device card under it would charge one
    /// card with another's cryptogram.
    func resolvingStoredCard(_ reader: RequestReader, merchant: Merchant) async throws -> (reader: RequestReader, token: String)? {
        guard let token = reader.text("sourceOfFunds.token") else { return nil }
        if reader.hasContent("sourceOfFunds.provided.card.devicePayment") { throw CardTokenRejection.devicePaymentWithToken.inPayment(token: token) }
        guard let opened = try await tokens.open(token: token, merchantId: merchant.id) else {
            throw CardTokenRejection.notFound.inPayment(token: token)
        }
        let cardPath = SessionContent.cardPath
        let given = SessionContent.value(reader.root, at: cardPath) ?? .object([:])
        let card = SessionContent.deepMerged(opened.card.sealedJSON, given)
        return (RequestReader(checked: SessionContent.replacing(cardPath, in: reader.root, with: card)), token)
    }
}

extension RequestEcho {
    /// The response echoes the token a payment named, as the reference does, whole: the echo's
    /// masking of number-like text is for free text, and a token is not a card number.
    func naming(token: String) -> RequestEcho {
        guard case .object(var members) = json else { return self }
        var sourceOfFunds: [String: JSONValue] = [:]
        if case .object(let existing)? = members["sourceOfFunds"] { sourceOfFunds = existing }
        sourceOfFunds["token"] = .string(token)
        members["sourceOfFunds"] = .object(sourceOfFunds)
        return RequestEcho(.object(members))
    }
}
