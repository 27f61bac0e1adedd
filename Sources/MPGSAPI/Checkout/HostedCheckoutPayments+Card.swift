import Foundation
import GatewayCore
import Logging
import WireJSON

extension HostedCheckoutPayments {
    /// The card form posted: checked in words, put into the session, authenticated (3-D Secure,
    /// sandbox) and paid. `authenticationReturnURL` is where the sandbox ACS sends the browser
    /// back after a challenge; `acsURL` the challenge page's address.
    package func payWithCard(
        _ checkout: Checkout,
        card: EnteredCard,
        authenticationReturnURL: String,
        acsURL: String,
        logger: Logger
    ) async throws -> Outcome {
        if checkout.settings.hasTimedOut(at: routes.sessions.clock()) { return .timedOut }
        // Said in words here; the session's own rule refuses the update anyway.
        if checkout.session.stored.isHeldByPayment { return .retry(message: Self.beingPaid) }
        let problems = CardFormCheck.problems(card)
        if !problems.isEmpty { return .invalid(problems) }
        let cardFields = CardFormCheck.sourceOfFunds(card)
        // The card is checked as Update Session checks it; a field error names the page's input.
        let updated: SessionService.OpenSession
        do {
            try SessionContent.validate(SessionContent.merged(checkout.session.content, cardFields))
            updated = try await routes.sessions.update(checkout.session, with: cardFields)
        } catch let error as GatewayError {
            guard let field = error.field.flatMap(CardFormCheck.pageField(for:)) else { throw error }
            return .invalid([field: CardFormCheck.words(for: field)])
        }
        guard let operation = checkout.settings.operation.paymentOperation else {
            // NONE: the session now holds the card; the merchant pays with it.
            return .completed(resultIndicator: checkout.settings.successIndicator, sessionVersion: updated.stored.version, succeeded: true)
        }
        var current = checkout
        current.session = updated
        current.sessionVersion = updated.stored.version
        guard operation != .verify, routes.authentications.isEnabled else {
            return try await pay(current, operation: operation, authenticationId: nil, logger: logger)
        }
        return try await authenticate(current, operation: operation, returnURL: authenticationReturnURL, acsURL: acsURL, logger: logger)
    }

    /// After the sandbox ACS: the authentication the challenge completed, then the payment.
    package func payAfterChallenge(_ checkout: Checkout, authenticationId: String, logger: Logger) async throws -> Outcome {
        if checkout.settings.hasTimedOut(at: routes.sessions.clock()) { return .timedOut }
        guard let operation = checkout.settings.operation.paymentOperation,
            let authentication = try await routes.authentications.store.authentication(
                merchantId: checkout.merchant.id,
                orderId: checkout.orderId,
                transactionId: authenticationId
            )
        else { return .retry(message: Self.notAuthenticated) }
        guard authentication.status.proceed, authentication.status != .pending else { return .retry(message: Self.notAuthenticated) }
        return try await pay(checkout, operation: operation, authenticationId: authenticationId, logger: logger)
    }

    static let beingPaid = "This payment is being processed in another window. Wait a moment, then reload this page."

    static let notAuthenticated = "Your card issuer could not confirm it is you, so nothing was paid. Try again or use another card."

    /// INITIATE_AUTHENTICATION then AUTHENTICATE_PAYER on the session's card, as the API makes
    /// them; a frictionless result pays at once, a challenge sends the payer to the ACS first.
    private func authenticate(
        _ checkout: Checkout,
        operation: PaymentRequest.Operation,
        returnURL: String,
        acsURL: String,
        logger: Logger
    ) async throws -> Outcome {
        let transactionId = try await nextTransactionId(checkout)
        let context = AuthenticationContext(
            merchantId: checkout.merchant.id,
            orderId: checkout.orderId,
            transactionId: transactionId,
            version: try version(checkout)
        )
        let request = SessionContent.merged(
            checkout.session.content,
            .object(["authentication": .object(["redirectResponseUrl": .string(returnURL)])])
        )
        let reader = RequestReader(checked: request)
        let initiated: PayerAuthentication
        let authenticated: PayerAuthentication
        do {
            initiated = try await routes.authentications.initiate(.reading(reader), context)
            guard initiated.status != .notSupported else {
                return try await pay(checkout, operation: operation, authenticationId: nil, logger: logger)
            }
            authenticated = try await routes.authentications.authenticatePayer(.reading(reader), context)
        } catch let rejection as AuthenticationRejection {
            throw rejection.gatewayError
        }
        switch authenticated.status {
        case .pending:
            guard let challengeId = authenticated.challengeId else { return .retry(message: Self.notAuthenticated) }
            return .challenge(html: ACSPage.redirectHTML(acsURL: acsURL, challengeId: challengeId))
        case .successful, .notSupported:
            return try await pay(checkout, operation: operation, authenticationId: transactionId, logger: logger)
        case .available, .failed, .unavailable:
            return .retry(message: Self.notAuthenticated)
        }
    }

    /// The payment itself: `interaction.operation`'s AUTHORIZE, PAY or VERIFY with `session.id`,
    /// carrying the checkout's transaction fields.
    func pay(
        _ checkout: Checkout,
        operation: PaymentRequest.Operation,
        authenticationId: String?,
        extra: JSONValue = .object([:]),
        logger: Logger
    ) async throws -> Outcome {
        var body = SessionContent.deepMerged(checkout.settings.paymentFields, extra)
        var members: [String: JSONValue] = [
            "apiOperation": .string(operation.rawValue),
            "session": .object(["id": .string(checkout.sessionId)]),
        ]
        if let authenticationId { members["authentication"] = .object(["transactionId": .string(authenticationId)]) }
        body = SessionContent.deepMerged(body, .object(members))
        if RequestReader(checked: body).text("transaction.source") == nil {
            body = SessionContent.deepMerged(body, .object(["transaction": .object(["source": .string("INTERNET")])]))
        }
        let version = try version(checkout)
        let bytes = body.serialized()
        let shape = RequestCatalogue.transactionRequest.shape(for: .initial(operation), version: version.number)
        let reader = try RequestReader(body: bytes, shape: shape)
        let transaction = PaymentProcessor.Context(
            merchant: checkout.merchant,
            orderId: checkout.orderId,
            transactionId: try await nextTransactionId(checkout),
            version: version,
            fingerprint: routes.fingerprinter.fingerprint(canonical: bytes, legacyHashInput: { bytes }),
            encoding: MPGSResponseEncoder()
        )
        let (processed, _) = try await routes.payInitial(reader, shape: shape, operation: operation, transaction, logger: logger)
        guard processed.recordedSuccess else {
            return .retry(message: Self.declined(processed.receipt.outcome.gatewayCode))
        }
        return .completed(resultIndicator: checkout.settings.successIndicator, sessionVersion: checkout.sessionVersion, succeeded: true)
    }

    static func declined(_ code: GatewayCode) -> String {
        switch code {
        case .expiredCard: "The card has expired. Use another card."
        case .timedOut, .systemError, .acquirerSystemError, .unknown, .pending, .submitted:
            "The payment could not be completed, and nothing was paid. Try again, or use another card."
        default: "The card was declined. Try again or use another card."
        }
    }

    /// The order's next transaction id: its transactions and authentications are numbered 1, 2, …
    private func nextTransactionId(_ checkout: Checkout) async throws -> String {
        let payments = try await routes.processor.store.transactions(merchantId: checkout.merchant.id, orderId: checkout.orderId)
        let authentications = try await routes.authentications.store.authentications(
            merchantId: checkout.merchant.id,
            orderId: checkout.orderId
        )
        return String(payments.count + authentications.count + 1)
    }

    private func version(_ checkout: Checkout) throws(GatewayError) -> APIVersion {
        guard let version = APIVersion(String(checkout.settings.apiVersion)) else {
            throw GatewayError.notFound("API version \(checkout.settings.apiVersion) is not supported")
        }
        return version
    }
}
