import ApplePayToken
import Crypto
import Dispatch
import Foundation
import GooglePayToken
import Logging

/// AUTHORIZE, PAY and VERIFY, end to end: retries, the wallet token (Apple's steps 1-6, Google's
/// 1-6), the acquirer, the store. The response is stored before it is returned, so what a client saw is never lost.
package struct PaymentProcessor: Sendable {
    package typealias Context = TransactionContext

    let environment: ProcessingEnvironment
    let decryptor: ApplePayTokenDecryptor
    let googlePayDecryptor: GooglePayTokenDecryptor

    package var store: any TransactionStore { environment.store }

    package init(_ environment: ProcessingEnvironment, decryptor: ApplePayTokenDecryptor, googlePayDecryptor: GooglePayTokenDecryptor) {
        self.environment = environment
        self.decryptor = decryptor
        self.googlePayDecryptor = googlePayDecryptor
    }

    package func process(_ request: PaymentRequest, _ context: Context, logger: Logger) async throws -> ProcessedTransaction {
        try await processRevealing(request, context, logger: logger).processed
    }

    /// Issue 32: as ``process(_:_:logger:)``, with the card's full number for an UNMASK response
    /// (nil when the answer came from the store without the card being read again). The number
    /// is never stored or logged: only the caller may put it into the response it returns.
    package func processRevealing(
        _ request: PaymentRequest,
        _ context: Context,
        logger: Logger
    ) async throws -> (processed: ProcessedTransaction, card: RevealedCard?) {
        try await checkStoredCredentials(request, context)
        do {
            return try await environment.locks.withLock(context.orderKey) {
                try await processLocked(request, context, logger: logger)
            }
        } catch PaymentRejection.token(let rejection) {
            environment.observer.tokenRejected(rejection)
            throw PaymentRejection.token(rejection)
        }
    }

    /// Optimistic, so a new order costs one store call (one database round trip): the request is
    /// decided as the first transaction on a new order and written with that as its precondition.
    /// The store refuses it, and says why, when it was not: a retry gets its stored response, an
    /// order with earlier (declined) transactions is read and decided again, a replayed token is
    /// refused. Nothing here has side effects before the write, so deciding twice is harmless.
    private func processLocked(
        _ request: PaymentRequest,
        _ context: Context,
        logger: Logger
    ) async throws -> (processed: ProcessedTransaction, card: RevealedCard?) {
        let card: ResolvedCard
        do {
            card = try await resolveCard(request, context)
        } catch {
            // A retry is answered as it was the first time, even when its token has expired since.
            if let stored = try await storedTransaction(context) {
                return (try context.retry(stored), nil)
            }
            throw error
        }
        let authentication = try await paymentAuthentication(request, context, card: card)
        let revealed = RevealedCard(number: card.acquirerRequest.cardNumber, isDevice: card.acquirerRequest.isDevicePayment)
        // The merchant's risk rules go first: a rejected payment never reaches the acquirer.
        let risk = context.merchant.risk?.assess(
            RiskScreeningInput(amount: request.amount, cardNumber: card.acquirerRequest.cardNumber, billingCountry: request.billingCountry)
        )
        let outcome =
            risk?.gatewayCode == .rejected ? AcquirerOutcome.blockedByRisk : await context.merchant.acquirer.process(card.acquirerRequest)
        let firstTry = record(request, context, card: card, outcome: outcome, risk: risk, existingOrder: nil, authentication: authentication)
        switch try await store.record(firstTry) {
        case .orderChanged:
            // The order exists: decide again on what it holds.
            let existingOrder = try await store.order(merchantId: context.merchant.id, orderId: context.orderId)
            if existingOrder?.hasSuccessfulInitialTransaction == true { throw PaymentRejection.orderAlreadySucceeded }
            let secondTry = record(
                request,
                context,
                card: card,
                outcome: outcome,
                risk: risk,
                existingOrder: existingOrder,
                authentication: authentication
            )
            return (try await environment.commit(secondTry, context, logger: logger, card: card.details.maskedNumber), revealed)
        case let firstOutcome:
            return (try environment.committed(firstTry, firstOutcome, context, logger: logger, card: card.details.maskedNumber), revealed)
        }
    }

    /// Issue 64: a merchant-initiated payment's rules, and the order `referenceOrderId` names,
    /// which must be one of this merchant's.
    private func checkStoredCredentials(_ request: PaymentRequest, _ context: Context) async throws {
        try request.checkStoredCredentials()
        if let reference = request.storedCredentials.referenceOrderId,
            try await store.order(merchantId: context.merchant.id, orderId: reference) == nil
        {
            throw MerchantInitiatedRejection.referenceOrderNotFound(reference)
        }
    }

    /// The 3-D Secure authentication a card's payment names, checked (the order's own, and
    /// successful): a plain card's, or a Google Pay PAN_ONLY card's, by 3-D Secure 2's
    /// `authentication.transactionId` or 3-D Secure 1's `3DSecureId`. A device payment's
    /// cryptogram is its authentication: a named one is not used.
    private func paymentAuthentication(
        _ request: PaymentRequest,
        _ context: Context,
        card: ResolvedCard
    ) async throws -> PaymentAuthentication? {
        guard !card.acquirerRequest.isDevicePayment else { return nil }
        if let threeDSecureId = request.threeDSecureId {
            return try await threeDS1Authentication(threeDSecureId, request, context)
        }
        guard let transactionId = request.authenticationTransactionId else { return nil }
        // The authentication is a transaction of its own: the payment cannot take its id.
        guard transactionId != context.transactionId else { throw PaymentRejection.transactionIdReused(context.transactionId) }
        return try await environment.authentications.authenticationForPayment(
            merchantId: context.merchant.id,
            orderId: context.orderId,
            transactionId: transactionId,
            amount: request.amount
        )
    }

    private func storedTransaction(_ context: Context) async throws -> StoredTransaction? {
        try await store.transaction(merchantId: context.merchant.id, orderId: context.orderId, transactionId: context.transactionId)
    }

    /// The transaction as decided on `existingOrder` (nil: a new order), with its response.
    private func record(
        _ request: PaymentRequest,
        _ context: Context,
        card: ResolvedCard,
        outcome: AcquirerOutcome,
        risk: RiskAssessment?,
        existingOrder: StoredOrder?,
        authentication: PaymentAuthentication?
    ) -> TransactionRecord {
        let now = environment.now()
        let order = OrderLedger.orderAfterInitial(
            outcome,
            request: request,
            createdAt: existingOrder?.state.creationTime ?? now
        )
        var receipt = TransactionReceipt(
            merchantId: context.merchant.id,
            orderId: context.orderId,
            transactionId: context.transactionId,
            version: context.version,
            transactionType: request.operation.transactionType,
            amount: request.amount,
            transactionSource: request.transactionSource,
            transactionReference: request.transactionReference,
            targetTransactionId: nil,
            card: card.details,
            outcome: outcome,
            order: order,
            time: now,
            echo: request.echo
        )
        receipt.authentication = authentication
        receipt.risk = risk
        receipt.storedOnFile = request.storedCredentials.storedOnFile
        return .orderOpening(
            receipt,
            operation: request.operation.apiOperation,
            context: context,
            existingOrder: existingOrder,
            notificationURL: request.notificationURL,
            eciIndicator: card.eci,
            replay: card.applePayReplay
        )
    }

    /// The card a request pays with, as the response shows it and the acquirer is asked.
    struct ResolvedCard {
        var details: CardDetails
        var acquirerRequest: AcquirerRequest
        var applePayReplay: ApplePayReplayKey?
        var eci: String?
    }

    private func resolveCard(_ request: PaymentRequest, _ context: Context) async throws -> ResolvedCard {
        switch request.source {
        case .card(let card):
            let details = CardDetails(
                maskedNumber: CardNumberMask.mask(card.number),
                brand: CardBrand(cardNumber: card.number),
                expiry: card.expiry,
                nameOnCard: card.nameOnCard
            )
            let acquirerRequest = AcquirerRequest(
                operation: request.operation,
                amount: request.amount,
                cardNumber: card.number,
                expiry: card.expiry,
                securityCode: card.securityCode,
                isDevicePayment: false
            )
            return ResolvedCard(details: details, acquirerRequest: acquirerRequest)
        case .devicePayment(let device):
            let details = CardDetails(
                maskedNumber: CardNumberMask.mask(device.number),
                brand: CardBrand(cardNumber: device.number),
                expiry: device.expiry,
                nameOnCard: device.nameOnCard,
                device: .init(
                    maskedNumber: CardNumberMask.mask(device.number),
                    expiry: device.expiry,
                    cryptogramFormat: device.cryptogramFormat
                )
            )
            let acquirerRequest = AcquirerRequest(
                operation: request.operation,
                amount: request.amount,
                cardNumber: device.number,
                expiry: device.expiry,
                securityCode: nil,
                isDevicePayment: true
            )
            return ResolvedCard(details: details, acquirerRequest: acquirerRequest, eci: device.eciIndicator)
        case .applePayToken(let token, let applicationData):
            return try resolve(try await decrypt(token, context), request, applicationData: applicationData)
        case .decryptedApplePayToken(let decrypted):
            return try resolve(decrypted, request, applicationData: nil)
        case .googlePayToken(let token):
            return try resolveGooglePay(token, request, context)
        }
    }

    /// A decrypted token's card, once Apple's steps 5 and 6 pass.
    private func resolve(
        _ decrypted: DecryptedPaymentToken,
        _ request: PaymentRequest,
        applicationData: [UInt8]?
    ) throws -> ResolvedCard {
        try checkTransaction(decrypted, request: request, applicationData: applicationData)
        let payment = decrypted.paymentData
        guard let expiry = CardExpiry(applePayDate: payment.applicationExpirationDate) else {
            throw PaymentRejection.token(.malformedExpiry)
        }
        let masked = CardNumberMask.mask(payment.applicationPrimaryAccountNumber)
        let format: CryptogramFormat = payment.paymentDataType == .emv ? .emv : .threeDSecure
        let details = CardDetails(
            maskedNumber: masked,
            brand: CardBrand(cardNumber: payment.applicationPrimaryAccountNumber),
            expiry: expiry,
            nameOnCard: payment.cardholderName,
            device: .init(maskedNumber: masked, expiry: expiry, cryptogramFormat: format)
        )
        let acquirerRequest = AcquirerRequest(
            operation: request.operation,
            amount: request.amount,
            cardNumber: payment.applicationPrimaryAccountNumber,
            expiry: expiry,
            securityCode: nil,
            isDevicePayment: true
        )
        return ResolvedCard(
            details: details,
            acquirerRequest: acquirerRequest,
            applePayReplay: ApplePayReplayKey(decrypted),
            eci: payment.eciIndicator
        )
    }

    private func decrypt(_ token: PaymentToken, _ context: Context) async throws(PaymentRejection) -> DecryptedPaymentToken {
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let decrypted = try await decryptor.decrypt(token, using: context.merchant.keyRing)
            environment.observer.tokenDecrypted(succeeded: true, nanoseconds: DispatchTime.now().uptimeNanoseconds - start)
            return decrypted
        } catch {
            environment.observer.tokenDecrypted(succeeded: false, nanoseconds: DispatchTime.now().uptimeNanoseconds - start)
            throw .token(TokenRejection(error))
        }
    }

    /// Apple's steps 5 and 6: same currency and amount, same applicationData. "Not seen before"
    /// is the store's: the replay record is written with the transaction, and a used key refuses it.
    private func checkTransaction(
        _ token: DecryptedPaymentToken,
        request: PaymentRequest,
        applicationData: [UInt8]?
    ) throws {
        let payment = token.paymentData
        let currency = request.amount.currency
        guard payment.currencyCode == currency.numericCode else {
            throw PaymentRejection.token(.currencyMismatch(tokenCurrencyCode: payment.currencyCode, orderCurrency: currency))
        }
        guard payment.transactionAmount == request.amount.minorUnits else {
            let tokenAmount = Amount(minorUnits: payment.transactionAmount, currency: currency)
            throw PaymentRejection.token(.amountMismatch(token: tokenAmount, order: request.amount))
        }
        if let applicationData {
            guard token.applicationData == Array(SHA256.hash(data: applicationData)) else {
                throw PaymentRejection.token(.applicationDataMismatch)
            }
        }
    }
}
