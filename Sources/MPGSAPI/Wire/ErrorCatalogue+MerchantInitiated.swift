import GatewayCore

extension ErrorCatalogue {
    /// Issue 64: every ``MerchantInitiatedRejection``, through an exhaustive switch.
    static var merchantInitiatedEntries: [Entry] {
        let rejections: [MerchantInitiatedRejection] = [
            .agreementMissing, .securityCodeSent, .cardNotStored(.toBeStored), .referenceOrderNotFound("order-41"),
        ]
        return rejections.map { rejection in
            switch rejection {
            case .agreementMissing:
                Entry(
                    name: "Merchant-initiated payment without its agreement",
                    error: rejection.gatewayError,
                    when: "An AUTHORIZE, PAY or VERIFY with `transaction.source` MERCHANT names neither `agreement.id` nor `referenceOrderId`.",
                    whatToDo: "Send the agreement the payer accepted in the series' first payment (or the order that payment made)."
                )
            case .securityCodeSent:
                Entry(
                    name: "Security code on a merchant-initiated payment",
                    error: rejection.gatewayError,
                    when: "A merchant-initiated payment carries `sourceOfFunds.provided.card.securityCode`.",
                    whatToDo: "Leave the security code out: the payer is not there to give it, and it is never stored."
                )
            case .cardNotStored:
                Entry(
                    name: "Merchant-initiated payment with a card not stored",
                    error: rejection.gatewayError,
                    when: "A merchant-initiated payment says `storedOnFile` NOT_STORED or TO_BE_STORED.",
                    whatToDo: "Send STORED (or leave it out): a merchant-initiated payment uses the card stored in the first payment."
                )
            case .referenceOrderNotFound:
                Entry(
                    name: "Reference order not found",
                    error: rejection.gatewayError,
                    when: "`referenceOrderId` names no order of this merchant.",
                    whatToDo: "Send the id of the series' earlier order, as this merchant created it."
                )
            }
        }
    }
}
