/// The Radial-style API's faults on the error reference page (`gateway errors`): one row per
/// `RadialFault.Kind`, through an exhaustive switch, so a new kind does not compile until it is
/// described here.
extension RadialFault.Kind {
    /// An example of the fault as the API answers it.
    var example: RadialFault {
        let wallet = "CreditCardAuthRequest/WalletPaymentInformation"
        return switch self {
        case .invalidRequest: .invalid("CreditCardAuthRequest/BillingAddress/City", "must be 1 to 40 characters")
        case .tokenRejected:
            RadialFault(self, element: "\(wallet)/ApplePayTransactionId", "REPLAYED: a token with this transactionId was already accepted")
        case .orderConflict:
            RadialFault(self, element: "CreditCardAuthRequest/OrderId", "the order already has a successful authorization; use a new OrderId")
        case .unauthorized: RadialFault(self, "the apikey header is missing or is not a key of this store")
        case .decryptNotEnabled: RadialFault(self, "Decrypt is not enabled for this store")
        case .unsupportedMediaType: RadialFault(self, "the body must be XML: Content-Type text/xml or application/xml")
        case .requestTooLarge: RadialFault(self, "the request body is larger than 65536 bytes")
        case .retry:
            RadialFault(self, element: "CreditCardAuthRequest/OrderId", "another request on this order was processed at the same time; retry")
        case .serviceUnavailable: RadialFault(self, "the gateway is busy; retry the request")
        case .serverFailed: RadialFault(self, "the request failed; support code 1A2B3C")
        }
    }

    var when: String {
        switch self {
        case .invalidRequest:
            "The body is not well-formed XML, is hostile XML (a DOCTYPE, an undefined entity, too deep or too many elements), or breaks the schema: an unknown, missing, repeated or misplaced element, a value outside its type, or a feature this gateway does not offer (client-encrypted or tokenized card numbers, card present)."
        case .tokenRejected:
            "The Apple Pay token's parts were refused: malformed, signature, chain, signing time, no matching key, decryption, payment data, replay, or an amount or currency other than the request's. The description starts with the token code of the Apple Pay tokens section."
        case .orderConflict:
            "The order already has a successful authorization, or the requestId was used on the order for a request with other content."
        case .unauthorized: "No `apikey` header, a key that is not one of the store's API passwords, or an unknown store."
        case .decryptNotEnabled: "A Decrypt request for a merchant whose `merchant.<ID>.radial.decrypt` is not `enabled`."
        case .unsupportedMediaType: "A Content-Type other than text/xml or application/xml."
        case .requestTooLarge: "The body is over `server.maxBodyBytes`."
        case .retry: "Another replica changed the order while this authorization was decided."
        case .serviceUnavailable: "The store did not answer in time or refused the write; the request may or may not have been recorded."
        case .serverFailed: "An unexpected failure, logged with the support code."
        }
    }

    var whatToDo: String {
        switch self {
        case .invalidRequest: "Correct the element named in `Element` (its path from the root; `/@name` is an attribute)."
        case .tokenRejected: "Ask the payer to pay again for a new token; check the merchant's keys when the key or decryption fails."
        case .orderConflict: "Use a new OrderId for a new authorization, or resend the first request unchanged to read its reply."
        case .unauthorized: "Send one of the merchant's API passwords in `apikey`, with the merchant id as store id."
        case .decryptNotEnabled: "Authorize the token with CreditCardAuth instead, or have the gateway's operator grant Decrypt."
        case .unsupportedMediaType: "Send `Content-Type: text/xml`."
        case .requestTooLarge: "Send a smaller body."
        case .retry, .serviceUnavailable: "Retry the same request; retries are idempotent."
        case .serverFailed: "Retry; if it persists, give the support code to the gateway's operator."
        }
    }
}

extension RadialFault {
    /// The Radial-style API's section of the error reference page.
    package static var referenceMarkdown: String {
        var page = """

            ## Radial-style API faults

            The XML operations at `/v1.0/stores/{storeId}/payments/...` answer errors as Radial's `Fault`, with the
            element at fault in `Element`; a declined authorization is not a fault but a `200` reply.

            | Code | HTTP | Element (example) | Description (example) | when it happens | what to do |
            | --- | --- | --- | --- | --- | --- |

            """
        for kind in RadialFault.Kind.allCases {
            let fault = kind.example
            let cells = [
                kind.rawValue, "\(kind.status.code)", fault.element.map { "`\($0)`" } ?? "", fault.description, kind.when,
                kind.whatToDo,
            ]
            page += "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
        }
        return page
    }
}
