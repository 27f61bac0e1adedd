import ApplePayToken
import Crypto
import Dispatch
import Foundation
import Logging

/// AUTHORIZE, PAY and VERIFY, end to end: retries, the Apple Pay token (steps 1-6), the acquirer,
/// the store. The response is stored before it is returned, so what a client saw is never lost.
package struct PaymentProcessor: Sendable {
    package typealias Context = TransactionContext

    let environment: ProcessingEnvironment
    let decryptor: ApplePayTokenDecryptor

    package var store: any TransactionStore { environment.store }

    package init(_ environment: ProcessingEnvironment, decryptor: ApplePayTokenDecryptor) {
        self.environment = environment
        self.decryptor = decryptor
    }

    package func process(_ request: PaymentRequest, _ context: Context, logger: Logger) async throws -> [UInt8] {
        try await environment.locks.withLock(context.orderKey) {
            try await processLocked(request, context, logger: logger)
        }
    }

    private func processLocked(_ request: PaymentRequest, _ context: Context, logger: Logger) async throws -> [UInt8] {
        if let stored = try await store.transaction(
            merchantId: context.merchant.id,
            orderId: context.orderId,
            transactionId: context.transactionId
        ) {
            return try context.retry(stored)
        }
        let existingOrder = try await store.order(merchantId: context.merchant.id, orderId: context.orderId)
        if existingOrder?.hasSuccessfulInitialTransaction == true { throw PaymentRejection.orderAlreadySucceeded }

        let (card, acquirerRequest, applePayTransactionId, eci) = try await resolveCard(request, context)
        let outcome = await context.merchant.acquirer.process(acquirerRequest)
        let now = environment.now()
        let order = OrderLedger.orderAfterInitial(
            outcome,
            request: request,
            createdAt: existingOrder?.state.creationTime ?? now
        )
        let body = environment.encoder.encode(
            TransactionReceipt(
                merchantId: context.merchant.id,
                orderId: context.orderId,
                transactionId: context.transactionId,
                version: context.version,
                transactionType: request.operation.transactionType,
                amount: request.amount,
                transactionSource: request.transactionSource,
                transactionReference: request.transactionReference,
                targetTransactionId: nil,
                card: .details(card),
                outcome: outcome,
                order: order,
                time: now,
                echo: request.echo
            )
        )
        let record = TransactionRecord(
            merchantId: context.merchant.id,
            orderId: context.orderId,
            transactionId: context.transactionId,
            operation: request.operation.apiOperation,
            requestHash: context.requestHash,
            responseBody: body,
            result: outcome.result,
            gatewayCode: outcome.gatewayCode,
            amountMinorUnits: request.amount.minorUnits,
            currency: request.amount.currency.code,
            succeeded: outcome.succeeded,
            eciIndicator: eci,
            applePayTransactionId: applePayTransactionId,
            time: now,
            isInitial: true,
            transactionType: request.operation.transactionType,
            targetTransactionId: nil,
            voidsTarget: false,
            expectedOrderVersion: existingOrder?.version,
            order: order
        )
        return try await environment.commit(record, context, logger: logger, card: card.maskedNumber)
    }

    private func resolveCard(
        _ request: PaymentRequest,
        _ context: Context
    ) async throws
        -> (CardDetails, AcquirerRequest, applePayTransactionId: String?, eci: String?)
    {
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
            return (details, acquirerRequest, nil, nil)
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
            return (details, acquirerRequest, nil, device.eciIndicator)
        case .applePayToken(let token, let applicationData):
            let decrypted = try await decrypt(token, context)
            try await checkTransaction(decrypted, request: request, applicationData: applicationData)
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
            return (details, acquirerRequest, decrypted.transactionId, payment.eciIndicator)
        }
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

    /// Apple's steps 5 and 6: not seen before, same currency and amount, same applicationData.
    private func checkTransaction(
        _ token: DecryptedPaymentToken,
        request: PaymentRequest,
        applicationData: [UInt8]?
    )
        async throws
    {
        if try await store.isApplePayTransactionUsed(token.transactionId) { throw PaymentRejection.token(.replayed) }
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
