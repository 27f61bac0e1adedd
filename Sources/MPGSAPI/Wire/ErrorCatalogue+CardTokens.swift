import GatewayCore

extension ErrorCatalogue {
    /// Every ``CardTokenRejection``, through an exhaustive switch: a new case does not compile
    /// until it is described here.
    static var cardTokenEntries: [Entry] {
        let rejections: [CardTokenRejection] = [.notFound, .preservedCardChanged, .devicePaymentNotStorable, .devicePaymentWithToken]
        return rejections.flatMap(entries(for:)) + [
            Entry(
                name: "Tokenization not enabled",
                error: TokenService.notEnabled,
                when: "A production gateway without `sessions.encryptionKey` (it seals stored cards too) is asked for a token.",
                whatToDo: "Configure `sessions.encryptionKey` (a secret of 64 hex characters)."
            )
        ]
    }

    private static func entries(for rejection: CardTokenRejection) -> [Entry] {
        switch rejection {
        case .notFound:
            [
                Entry(
                    name: "Token not found",
                    error: rejection.gatewayError,
                    when: "Update, Retrieve or Delete Token names a token that is unknown, deleted, or another merchant's.",
                    whatToDo: "Create a token (`POST .../token`); a token names a card of its own merchant only."
                ),
                Entry(
                    name: "Payment token not found",
                    error: rejection.inPayment(token: "9102030405060708"),
                    when:
                        "An AUTHORIZE, PAY, VERIFY, INITIATE_AUTHENTICATION or AUTHENTICATE_PAYER names a `sourceOfFunds.token` "
                        + "that is unknown, deleted, or another merchant's.",
                    whatToDo: "Pay with a token of this merchant's repository, or with the card itself."
                ),
            ]
        case .preservedCardChanged:
            [
                Entry(
                    name: "Token card number cannot change",
                    error: rejection.gatewayError,
                    when: "Update Token gives another card number for a token of a `preserveSixFour` repository.",
                    whatToDo: "Update only the expiry, or create a new token for the new card."
                )
            ]
        case .devicePaymentNotStorable:
            [
                Entry(
                    name: "Apple Pay payment not storable",
                    error: rejection.gatewayError,
                    when: "Create or Update Token is given (or names a session holding) an Apple Pay token or device payment data.",
                    whatToDo: "Tokenize the card the payer typed; pay with Apple Pay by sending its token with each payment."
                )
            ]
        case .devicePaymentWithToken:
            [
                Entry(
                    name: "Gateway token with Apple Pay data",
                    error: rejection.gatewayError,
                    when:
                        "An AUTHORIZE, PAY, VERIFY, INITIATE_AUTHENTICATION or AUTHENTICATE_PAYER names a `sourceOfFunds.token` and carries "
                        + "Apple Pay data too (`devicePayment.paymentToken` or decrypted cryptogram fields, in the request or its session).",
                    whatToDo: "Pay with the token alone (a stored credential), or with the Apple Pay payment alone."
                )
            ]
        }
    }
}
