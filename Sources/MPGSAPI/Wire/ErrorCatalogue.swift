import ApplePayToken
import GatewayCore
import GatewayHTTP

/// Every error a client can meet, with an example built by the same code that answers it, when it
/// happens and what to do: the source of the reference page (`gateway errors`, committed as
/// `Deploy/ERRORS.md`; a test keeps the two equal).
///
/// It cannot fall behind the code: each `PaymentRejection` and `TokenRejection` case is reached
/// through an exhaustive switch (a new case does not compile until it is described here), and the
/// token library's codes come from `ApplePayTokenError.Code.allCases` (a test checks each has advice).
package enum ErrorCatalogue {
    struct Entry {
        var name: String
        var error: GatewayError
        var when: String
        var whatToDo: String
    }

    struct Section {
        var title: String
        var entries: [Entry]
    }

    static var sections: [Section] {
        [
            Section(title: "Requests", entries: requestEntries),
            Section(title: "Orders and follow-on operations", entries: RejectionKind.allCases.map(\.entry)),
            Section(title: "Sessions", entries: sessionEntries),
            Section(title: "Apple Pay tokens", entries: tokenEntries),
            Section(title: "Google Pay tokens", entries: googlePayTokenEntries),
            Section(title: "Gateway tokens (Tokenization)", entries: cardTokenEntries),
            Section(title: "3-D Secure", entries: AuthenticationRejectionKind.allCases.map(\.entry)),
            Section(title: "3-D Secure 1", entries: ThreeDS1RejectionKind.allCases.map(\.entry)),
            Section(title: "Browser payments (PayPal)", entries: browserPaymentEntries),
            Section(title: "Recurring and merchant-initiated payments", entries: merchantInitiatedEntries),
        ]
    }

    private static var requestEntries: [Entry] {
        [
            Entry(
                name: "Missing parameter",
                error: .missing("order.currency"),
                when: "A field the operation needs is absent, null or empty.",
                whatToDo: "Send the field named in `error.field`."
            ),
            Entry(
                name: "Invalid value",
                error: .invalidValue("order.amount", "12.345", "Use at most 2 decimal places for USD"),
                when: "A field has the wrong format, length or value.",
                whatToDo: "Correct the field named in `error.field` as the explanation says."
            ),
            Entry(
                name: "Unexpected parameter",
                error: .unexpected("order.colour"),
                when: "The body has a field the operation does not take (a misspelling, or a field of another API).",
                whatToDo: "Remove the field, or check its spelling and nesting against openapi.yaml."
            ),
            Entry(
                name: "Unsupported value",
                error: .unsupported("sourceOfFunds.type", "ACH", "Only CARD is supported"),
                when: "A field names something this gateway does not offer.",
                whatToDo: "Use one of the values the explanation lists."
            ),
            Entry(
                name: "Malformed JSON",
                error: .malformedJSON("the body is not valid JSON"),
                when: "The body is empty, not JSON, or not a JSON object.",
                whatToDo: "Send one JSON object with `Content-Type: application/json`."
            ),
            Entry(
                name: "Malformed HTTP request",
                error: .malformedHTTP(MalformedHTTP.explanation(for: nil)),
                when: "The HTTP parser refused the request: a bad or repeated Content-Length, Content-Length with "
                    + "Transfer-Encoding, a malformed chunked body, a Transfer-Encoding whose last coding is not chunked, "
                    + "an oversized head, a bad method or path. The connection is closed after the answer.",
                whatToDo: "Fix the HTTP client or proxy in front of it; nothing was processed."
            ),
            Entry(
                name: "Transfer coding not implemented",
                error: .transferCodingNotImplemented("gzip, chunked"),
                when: "Transfer-Encoding ends in chunked but names another coding as well (`gzip, chunked`): the "
                    + "body is framed, but this server decodes no coding other than chunked. The connection is "
                    + "closed after the answer.",
                whatToDo: "Send the body uncompressed, with Content-Length or Transfer-Encoding: chunked alone."
            ),
            Entry(
                name: "Body too large",
                error: GatewayError(
                    status: .contentTooLarge,
                    cause: .invalidRequest,
                    explanation: "The request body is larger than 65536 bytes"
                ),
                when: "The body (or the Content-Length it declares) is over `server.maxBodyBytes`.",
                whatToDo: "Send a smaller body; a payment request is a few kilobytes."
            ),
            Entry(
                name: "Invalid credentials",
                error: .invalidCredentials,
                when: "No HTTP Basic credentials, an unknown merchant, or a wrong API password.",
                whatToDo: "Authenticate as `merchant.<merchantId>` with one of the merchant's API passwords."
            ),
            Entry(
                name: "Not authorised for the target",
                error: .notAuthorisedForTarget,
                when: "The credentials are a merchant's, but the path names another merchant.",
                whatToDo: "Use the merchant id of the credentials in the path."
            ),
            Entry(
                name: "Not found",
                error: .notFound(),
                when: "An unknown path, or an order or transaction this merchant does not have.",
                whatToDo: "Check the path, the version (39 to 100) and the ids."
            ),
            Entry(
                name: "Method not allowed",
                error: GatewayError(
                    status: .methodNotAllowed,
                    cause: .invalidRequest,
                    explanation: "Method not allowed on this resource"
                ),
                when: "The path exists but not with this HTTP method (the `Allow` header lists those it takes).",
                whatToDo: "Use PUT for transactions, GET for retrievals."
            ),
            Entry(
                name: "Lock failure",
                error: .lockFailure,
                when: "Between replicas: another transaction on the same order kept winning while this one was decided.",
                whatToDo: "Retry the same request: retries are idempotent."
            ),
            Entry(
                name: "Server busy",
                error: .serverBusy,
                when:
                    "The store (PostgreSQL) did not answer within `store.timeoutSeconds`, is unreachable, or refused the write (a demoted primary); or the SQLite store's disk is full or failing (`/readyz` is NOT_READY until a write succeeds again). The request may or may not have been recorded.",
                whatToDo:
                    "Retry the same request, with the same order and transaction id, after `Retry-After` seconds: it is answered once, with the stored response if the first attempt committed."
            ),
            Entry(
                name: "Server failed",
                error: .serverFailed(supportCode: "K3Z9QX"),
                when: "A fault in the gateway; the log line with the same support code says what failed.",
                whatToDo: "Quote the support code to the gateway's operators."
            ),
        ]
    }

    private static var sessionEntries: [Entry] {
        [
            Entry(
                name: "Session not found",
                error: SessionRejection.notFound.gatewayError,
                when: "Update or Retrieve Session names a session that is unknown, expired, used, or another merchant's.",
                whatToDo: "Create a new session (sessions live `sessions.lifetimeSeconds`, and a successful payment uses one up)."
            ),
            Entry(
                name: "Payment session not found",
                error: SessionRejection.notFound.inPayment,
                when: "An AUTHORIZE, PAY or VERIFY names a session that is unknown, expired, used, or another merchant's.",
                whatToDo: "Create and fill a new session, then pay with its id."
            ),
            Entry(
                name: "Session not updated",
                error: SessionRejection.notUpdated(.noUpdate).inPayment,
                when: "A payment names a session nothing was successfully put into yet.",
                whatToDo: "Update the session (the app puts the Apple Pay token into it) before paying."
            ),
            Entry(
                name: "Session version changed",
                error: SessionRejection.staleVersion("3f2c6a1b0e").inPayment,
                when: "`session.version` is not the session's current version: it was updated since.",
                whatToDo: "Retrieve the session and check what changed, or leave `session.version` out."
            ),
            Entry(
                name: "Session in use",
                error: SessionRejection.inUse.inPayment,
                when: "Two payments named one session at once: the first claimed it, the others are refused.",
                whatToDo: "Wait for the first payment's answer; after a decline the session can pay again."
            ),
            Entry(
                name: "Session updated at the same time",
                error: SessionRejection.concurrentUpdate.gatewayError,
                when: "Two updates of one session raced.",
                whatToDo: "Retry the update."
            ),
            Entry(
                name: "Sessions not enabled",
                error: SessionService.notEnabled,
                when: "A production gateway without `sessions.encryptionKey` is asked for a session.",
                whatToDo: "Configure `sessions.encryptionKey` (a secret of 64 hex characters)."
            ),
        ]
    }

    private static var tokenEntries: [Entry] {
        let library = ApplePayTokenError.Code.allCases.map { code in
            let advice = libraryAdvice[code.rawValue] ?? ("", "")
            return Entry(
                name: code.rawValue,
                error: TokenRejection.library(code: code, reason: "(the library's reason)").entryError,
                when: advice.when,
                whatToDo: advice.whatToDo
            )
        }
        // The gateway's own expiry check answers the library's code, so it is that row, not a second one.
        return library + TokenKind.allCases.filter { $0 != .malformedExpiry }.map(\.entry)
    }

    /// When each token library code happens and what to do (every code must have one: tested).
    static let libraryAdvice: [String: (when: String, whatToDo: String)] = [
        "MALFORMED_TOKEN": (
            "The token is not Apple's paymentData JSON (or base64 of it): a field is missing, has the wrong type, or bad base64 or hex.",
            "Send `PKPaymentToken.paymentData` (Apple Pay JS: `ApplePayPaymentToken.paymentData`) unchanged, as a JSON string."
        ),
        "UNSUPPORTED_VERSION": ("`version` is not EC_v1 or RSA_v1.", "Check the token is an Apple Pay payment token, not another wallet's."),
        "SIGNATURE_INVALID": (
            "The CMS signature is unreadable, altered, has other than one signer, or does not verify.",
            "Send the token exactly as the device produced it; do not re-encode it."
        ),
        "MESSAGE_DIGEST_MISMATCH": (
            "The signed digest does not match the token's key, data, transactionId and applicationData: the token was altered.",
            "Send the token exactly as the device produced it."
        ),
        "MISSING_LEAF_MARKER": ("The signing certificate is not Apple's payment token signing certificate.", "The token was not signed by Apple."),
        "MISSING_INTERMEDIATE_MARKER": ("The intermediate certificate is not Apple's.", "The token was not signed by Apple."),
        "UNTRUSTED_CHAIN": (
            "The certificates do not chain to a trusted root at the signing time (production trusts Apple Root CA - G3 alone).",
            "Sandbox tokens work only against a sandbox gateway (or `gateway decrypt --trust-root`)."
        ),
        "SIGNING_TIME_OUTSIDE_WINDOW": (
            "The token was signed more than `applePay.signingTimeWindowSeconds` (5 minutes) from now.",
            "Authorize right after the device produces the token; check the server's clock."
        ),
        "NO_MATCHING_KEY": (
            "No configured key matches the token's publicKeyHash.",
            "Configure the Payment Processing certificate's key (not the Merchant Identity one) for this merchant."
        ),
        "DECRYPTION_FAILED": (
            "The key matched by hash could not restore the symmetric key, or the data failed its integrity check.",
            "Check the configured key pair is the one Apple issued the Payment Processing certificate for."
        ),
        "MALFORMED_PAYMENT_DATA": (
            "The decrypted payment data is not Apple's format (PAN of 12-19 digits, YYMMDD expiry with a month 01-12, integer amount, 3-digit currency).",
            "Report it with the token's transactionId: a genuine Apple token never does this."
        ),
        "INVALID_KEY_MATERIAL": ("A merchant key or certificate could not be loaded.", "Fix the key files named in the configuration."),
        "VERIFICATION_BUSY": (
            "The token's certificate chain is one the gateway has not verified before, and it has verified "
                + "`applePay.newChainsPerSecond` new chains in the last second (forged chains cost a P-384 verification each).",
            "Send the same request again after the `Retry-After` second; nothing was recorded. Real Apple chains are "
                + "verified once and cached, so only a flood of new chains meets this."
        ),
    ]
}

/// One case per `PaymentRejection` case: the switch in `init(_:)` makes a new rule fail to
/// compile until it is described below.
enum RejectionKind: CaseIterable {
    case transactionIdReused, orderNotFound, orderAlreadySucceeded, orderChanged, orderCurrencyUnknown, amountMissing
    case currencyMismatch, nothingToCapture, nothingCaptured, refundTargetNotFound, exceedsAvailable, nothingToVoid, token
    // UPDATE_AUTHORIZATION (issue 30).
    case nothingToUpdate, updateBelowCaptured
    case authentication
    case threeDS1
    // Risk assessment (issue 64).
    case riskReviewRejected

    init(_ rejection: PaymentRejection) {
        switch rejection {
        case .transactionIdReused: self = .transactionIdReused
        case .orderNotFound: self = .orderNotFound
        case .orderAlreadySucceeded: self = .orderAlreadySucceeded
        case .orderChanged: self = .orderChanged
        case .orderCurrencyUnknown: self = .orderCurrencyUnknown
        case .amountMissing: self = .amountMissing
        case .currencyMismatch: self = .currencyMismatch
        case .nothingToCapture: self = .nothingToCapture
        case .nothingCaptured: self = .nothingCaptured
        case .refundTargetNotFound: self = .refundTargetNotFound
        case .exceedsAvailable: self = .exceedsAvailable
        case .nothingToVoid: self = .nothingToVoid
        case .token: self = .token
        case .nothingToUpdate: self = .nothingToUpdate
        case .updateBelowCaptured: self = .updateBelowCaptured
        case .authentication: self = .authentication
        case .threeDS1: self = .threeDS1
        case .riskReviewRejected: self = .riskReviewRejected
        }
    }

    var example: PaymentRejection { described.example }

    var entry: ErrorCatalogue.Entry {
        let (example, name, when, whatToDo) = described
        return ErrorCatalogue.Entry(name: name, error: example.gatewayError, when: when, whatToDo: whatToDo)
    }

    private var described: (example: PaymentRejection, name: String, when: String, whatToDo: String) {
        let usd = Currency(code: "USD")!
        return
            switch self
        {
        case .transactionIdReused:
            (
                .transactionIdReused("1"), "Transaction id reused",
                "A transaction id already used on the order is sent again with a different body.",
                "Use a new transaction id; an identical retry returns the stored response instead."
            )
        case .orderNotFound:
            (
                .orderNotFound("order-7"), "Order not found", "A CAPTURE, REFUND, VOID or UPDATE_AUTHORIZATION names an order with no transactions.",
                "Check the order id."
            )
        case .orderAlreadySucceeded:
            (
                .orderAlreadySucceeded, "Order already paid or authorized",
                "An AUTHORIZE or PAY on an order that already has a successful one.", "Use a new order id for a new payment."
            )
        case .orderChanged:
            (.orderChanged, "Lock failure", "Replicas kept changing the order while this transaction was decided.", "Retry the same request.")
        case .orderCurrencyUnknown:
            (
                .orderCurrencyUnknown("XTS"), "Order currency unknown",
                "A stored order is in a currency this gateway version no longer knows.", "Contact the gateway's operators."
            )
        case .amountMissing:
            (
                .amountMissing, "Amount missing", "A CAPTURE, REFUND or UPDATE_AUTHORIZATION without `transaction.amount`.",
                "Send the amount to capture or refund, or the new total to authorize."
            )
        case .currencyMismatch:
            (
                .currencyMismatch(Currency(code: "EUR")!, orderCurrency: usd), "Currency mismatch",
                "A CAPTURE, REFUND or UPDATE_AUTHORIZATION in another currency than the order's.", "Use the order's currency."
            )
        case .nothingToCapture:
            (.nothingToCapture, "Nothing to capture", "A CAPTURE on an order that is not authorized (any more).", "Authorize first.")
        case .nothingCaptured:
            (.nothingCaptured, "Nothing captured", "A REFUND on an order with nothing captured.", "Capture first, or VOID the authorization.")
        case .refundTargetNotFound:
            (
                .refundTargetNotFound("9"), "Refund target not found",
                "`transaction.targetTransactionId` names no successful, unvoided capture or payment on the order.",
                "Name a capture or payment of this order, or leave the target out."
            )
        case .exceedsAvailable:
            (
                .exceedsAvailable(.capture, amount: Amount(minorUnits: 12000, currency: usd), available: Amount(minorUnits: 10000, currency: usd)),
                "Amount exceeds what is available", "A CAPTURE over the authorized amount left, or a REFUND over the captured amount left.",
                "Capture or refund at most the amount the explanation gives."
            )
        case .nothingToVoid:
            (
                .nothingToVoid, "Nothing to void",
                "The VOID's target is missing, failed, already voided, or money moved on the order since.",
                "Void the latest capture or refund, or the authorization before anything was captured."
            )
        case .token:
            (
                .token(.replayed), "Apple Pay token rejected",
                "The token failed a check: the codes are listed under Apple Pay tokens.", "See the code after \"Apple Pay token rejected:\"."
            )
        case .nothingToUpdate:
            (
                .nothingToUpdate(.captured), "Nothing to update",
                "An UPDATE_AUTHORIZATION on an order that holds no authorization: not authorized, paid, fully captured, refunded, voided or failed.",
                "Update only an AUTHORIZED or PARTIALLY_CAPTURED order; authorize a new order otherwise."
            )
        case .updateBelowCaptured:
            (
                .updateBelowCaptured(amount: Amount(minorUnits: 3000, currency: usd), captured: Amount(minorUnits: 4000, currency: usd)),
                "Update below captured", "An UPDATE_AUTHORIZATION whose new total is less than the order has captured.",
                "Send a new total of at least the captured amount the explanation gives."
            )
        case .authentication:
            (
                .authentication(.notFound(transactionId: "auth-1")), "3-D Secure authentication refused",
                "The request's 3-D Secure authentication was refused: the cases are listed under 3-D Secure.",
                "See the 3-D Secure section."
            )
        case .threeDS1:
            (
                .threeDS1(.notFound(threeDSecureId: "3ds-1")), "3-D Secure 1 authentication refused",
                "The payment's top-level `3DSecureId` was refused: the cases are listed under 3-D Secure 1.",
                "See the 3-D Secure 1 section."
            )
        case .riskReviewRejected:
            (
                .riskReviewRejected("1"), "Rejected in risk review",
                "A CAPTURE or UPDATE_AUTHORIZATION on an order whose payment an operator rejected in its risk review "
                    + "(`risk.response.review.decision` REJECTED).",
                "Do not fulfil the order: VOID the authorization or REFUND the payment."
            )
        }
    }
}

/// The gateway's own Apple Pay token checks (Apple's steps 5 and 6), one per `TokenRejection` case
/// but the library's (which `ApplePayTokenError.Code.allCases` covers) and Google Pay's
/// (``GooglePayTokenKind``).
enum TokenKind: CaseIterable {
    case replayed, currencyMismatch, amountMismatch, applicationDataMismatch, malformedExpiry

    init?(_ rejection: TokenRejection) {
        switch rejection {
        case .library, .googlePay, .googlePayNotEnabled, .gatewayMerchantMismatch, .googlePayReplayed: return nil
        case .replayed: self = .replayed
        case .currencyMismatch: self = .currencyMismatch
        case .amountMismatch: self = .amountMismatch
        case .applicationDataMismatch: self = .applicationDataMismatch
        case .malformedExpiry: self = .malformedExpiry
        }
    }

    var example: TokenRejection { described.example }

    var entry: ErrorCatalogue.Entry {
        let (example, when, whatToDo) = described
        return ErrorCatalogue.Entry(name: example.code, error: example.entryError, when: when, whatToDo: whatToDo)
    }

    private var described: (example: TokenRejection, when: String, whatToDo: String) {
        let usd = Currency(code: "USD")!
        return
            switch self
        {
        case .replayed:
            (
                .replayed, "A token with this Apple transaction id was already processed (by any replica, in any spelling).",
                "Ask the customer to pay again: every payment needs a new token."
            )
        case .currencyMismatch:
            (
                .currencyMismatch(tokenCurrencyCode: "978", orderCurrency: usd), "The token's currency is not the order's.",
                "Send the order in the currency of the Apple Pay payment request."
            )
        case .amountMismatch:
            (
                .amountMismatch(token: Amount(minorUnits: 1000, currency: usd), order: Amount(minorUnits: 5656, currency: usd)),
                "The token's amount is not the order's.", "Send the order amount the Apple Pay sheet showed."
            )
        case .applicationDataMismatch:
            (
                .applicationDataMismatch, "The request's applicationData does not hash to the token's.",
                "Send the applicationData (base64) that the Apple Pay payment request carried."
            )
        case .malformedExpiry:
            (.malformedExpiry, "The decrypted expiry date is not YYMMDD.", "Report it with the token's transactionId.")
        }
    }
}

extension TokenRejection {
    var entryError: GatewayError { PaymentRejection.token(self).gatewayError }
}

extension ErrorCatalogue {
    /// The reference page, in Markdown.
    package static var markdown: String {
        var page = """
            # Errors

            Every error the gateway answers, generated from the code that answers it (`gateway errors`; the
            tests fail when this page and the code differ). Each is an MPGS error body:
            `{"result":"ERROR","error":{"cause":...,"explanation":...,"field":...,"validationType":...}}`.
            Identical retries of a transaction return the stored response instead, and a declined payment is
            not an error: it is a `201` with `result` `FAILURE` and its `response.gatewayCode`.

            """
        for section in sections {
            page += "\n## \(section.title)\n\n"
            page += "| error | HTTP | cause | validationType | field | explanation (example) | when it happens | what to do |\n"
            page += "| --- | --- | --- | --- | --- | --- | --- | --- |\n"
            for entry in section.entries {
                let error = entry.error
                let cells = [
                    entry.name, "\(error.status.code)", error.cause.rawValue, error.validationType?.rawValue ?? "",
                    error.field.map { "`\($0)`" } ?? "", error.explanation, entry.when, entry.whatToDo,
                ]
                page += "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
            }
        }
        return page
    }
}
