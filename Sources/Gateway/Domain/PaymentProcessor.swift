import ApplePayToken
import Crypto
import Dispatch
import Foundation
import Logging

/// AUTHORIZE and PAY, end to end: retries, the Apple Pay token (steps 1-6), the acquirer, the
/// store. The response is stored before it is returned, so what a client saw is never lost.
struct PaymentProcessor: Sendable {
    let store: any TransactionStore
    let decryptor: ApplePayTokenDecryptor
    let locks: OrderLocks
    let clock: @Sendable () -> Date
    let metrics: GatewayMetrics

    struct Context: Sendable {
        var merchant: Merchant
        var orderId: String
        var transactionId: String
        var version: String
        /// SHA-256 of the canonical request body: what an identical retry must match.
        var requestHash: [UInt8]
    }

    static let tokenField = "sourceOfFunds.provided.card.devicePayment.paymentToken"

    func process(_ request: PaymentRequest, _ context: Context, logger: Logger) async throws -> [UInt8] {
        try await locks.withLock("\(context.merchant.id)\u{0}\(context.orderId)") {
            try await processLocked(request, context, logger: logger)
        }
    }

    private func processLocked(_ request: PaymentRequest, _ context: Context, logger: Logger) async throws -> [UInt8] {
        if let stored = try await store.transaction(
            merchantId: context.merchant.id,
            orderId: context.orderId,
            transactionId: context.transactionId
        ) {
            return try Self.retry(stored, context)
        }
        let existingOrder = try await store.order(merchantId: context.merchant.id, orderId: context.orderId)
        if existingOrder?.hasSuccessfulInitialTransaction == true { throw Self.orderAlreadySucceeded }

        let (card, acquirerRequest, applePayTransactionId, eci) = try await resolveCard(request, context)
        let outcome = await context.merchant.acquirer.process(acquirerRequest)
        let now = Date(milliseconds: clock().milliseconds)  // what the store keeps, so retries match
        let order = Self.orderState(after: outcome, request: request, createdAt: existingOrder?.state.creationTime ?? now)
        let body = TransactionResponse(
            merchantId: context.merchant.id,
            orderId: context.orderId,
            transactionId: context.transactionId,
            version: context.version,
            transactionType: request.operation.transactionType,
            amount: request.amount,
            transactionSource: request.transactionSource,
            transactionReference: request.transactionReference,
            targetTransactionId: nil,
            sourceOfFunds: card.json,
            outcome: outcome,
            order: order,
            time: now
        ).json.serialized()

        let record = TransactionRecord(
            merchantId: context.merchant.id,
            orderId: context.orderId,
            transactionId: context.transactionId,
            operation: request.operation.rawValue,
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
        return try await store.commit(record, context, logger: logger, metrics: metrics, card: card.maskedNumber)
    }

    /// An identical request gets the stored response; anything else under the same ids is refused.
    static func retry(_ stored: StoredTransaction, _ context: Context) throws(GatewayError) -> [UInt8] {
        guard stored.requestHash == context.requestHash else {
            throw GatewayError.invalidValue(
                "transaction.id",
                context.transactionId,
                "A transaction with this ID already exists on this order with different details"
            )
        }
        return stored.responseBody
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
                throw GatewayError.invalid(
                    Self.tokenField,
                    "Apple Pay token rejected: MALFORMED_PAYMENT_DATA: applicationExpirationDate is not YYMMDD"
                )
            }
            let masked = CardNumberMask.mask(payment.applicationPrimaryAccountNumber)
            let format = payment.paymentDataType == .emv ? "EMV" : "3DSECURE"
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

    private func decrypt(_ token: PaymentToken, _ context: Context) async throws(GatewayError) -> DecryptedPaymentToken {
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let decrypted = try await decryptor.decrypt(token, using: context.merchant.keyRing)
            metrics.tokenDecrypt(succeeded: true, nanoseconds: elapsedNanoseconds(since: start))
            return decrypted
        } catch {
            metrics.tokenDecrypt(succeeded: false, nanoseconds: elapsedNanoseconds(since: start))
            throw GatewayError.invalid(Self.tokenField, "Apple Pay token rejected: \(error.code): \(error.reason)")
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
        if try await store.isApplePayTransactionUsed(token.transactionId) { throw Self.replayed }
        let payment = token.paymentData
        let currency = request.amount.currency
        guard payment.currencyCode == currency.numericCode else {
            throw GatewayError.invalid(
                Self.tokenField,
                "Apple Pay token rejected: CURRENCY_MISMATCH: the token's currencyCode \(payment.currencyCode) is not "
                    + "\(currency.code) (\(currency.numericCode))"
            )
        }
        guard payment.transactionAmount == request.amount.minorUnits else {
            let tokenAmount = Amount(minorUnits: payment.transactionAmount, currency: currency)
            throw GatewayError.invalid(
                Self.tokenField,
                "Apple Pay token rejected: AMOUNT_MISMATCH: the token's transactionAmount is \(tokenAmount.text), "
                    + "the order amount is \(request.amount.text)"
            )
        }
        if let applicationData {
            guard token.applicationData == Array(SHA256.hash(data: applicationData)) else {
                throw GatewayError.invalid(
                    Self.tokenField,
                    "Apple Pay token rejected: APPLICATION_DATA_MISMATCH: the token's applicationData is not the "
                        + "SHA-256 of sourceOfFunds.provided.card.devicePayment.applicationData"
                )
            }
        }
    }

    private static func orderState(
        after outcome: AcquirerOutcome,
        request: PaymentRequest,
        createdAt: Date
    )
        -> OrderState
    {
        let authorized = outcome.succeeded ? outcome.authorizedMinorUnits : 0
        let status =
            switch (outcome.succeeded, request.operation) {
            case (true, .authorize): "AUTHORIZED"
            case (true, .pay): "CAPTURED"
            case (true, .verify): "VERIFIED"
            case (false, _): "FAILED"
            }
        return OrderState(
            amountMinorUnits: request.amount.minorUnits,
            currency: request.amount.currency.code,
            status: status,
            totalAuthorizedMinorUnits: authorized,
            totalCapturedMinorUnits: request.operation == .pay ? authorized : 0,
            totalRefundedMinorUnits: 0,
            walletProvider: request.walletProvider,
            reference: request.orderReference,
            creationTime: createdAt
        )
    }

    static let replayed = GatewayError.invalid(
        tokenField,
        "Apple Pay token rejected: REPLAYED: a token with this transactionId was already accepted"
    )

    static let orderAlreadySucceeded = GatewayError.request(
        "The order already has a successful payment or authorization; use a new order ID"
    )
}
