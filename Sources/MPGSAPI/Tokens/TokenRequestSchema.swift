import GatewayCore

/// What Create or Update Token bodies may carry: the card as AUTHORIZE, PAY and VERIFY take it
/// (the request catalogue's shapes, so a card reads the same in both), the payer's details the
/// reference lets a token request carry, and the token operation's own fields.
extension FieldShape {
    static func tokenRequest(version: Int) -> FieldShape {
        let shape = RequestCatalogue.transactionRequest.shape(
            operations: [.verify],
            version: version,
            groups: ["sourceOfFunds", "billing", "customer", "shipping", "device"]
        )
        guard case .object(var groups, _) = shape else { return .object([:]) }
        groups["correlationId"] = .text
        groups["verificationStrategy"] = .text
        groups["session"] = .object(["id": .text, "version": .text])
        // The currency of an ACQUIRER verification.
        groups["transaction"] = .object(["currency": .text])
        return .object(groups)
    }
}
