import Foundation

/// One transaction, typed: everything any front end's response says about it. The stores keep it
/// column by column, so follow-ons, Retrieve Order and every API render from it; the bytes one
/// API answered with are kept beside it only for that API's identical retries.
package struct TransactionReceipt: Sendable, Hashable {
    package var merchantId: String
    package var orderId: String
    package var transactionId: String
    /// The API version the client called.
    package var version: APIVersion
    package var transactionType: TransactionType
    package var amount: Amount
    package var transactionSource: String
    package var transactionReference: String?
    package var targetTransactionId: String?
    /// The order's card: an initial transaction's own, a follow-on's as the order's first transaction recorded it.
    package var card: CardDetails
    package var outcome: AcquirerOutcome
    /// The order as it stood after this transaction.
    package var order: OrderState
    package var time: Date
    /// What the response returns of the requests on the order so far (billing, customer, ...):
    /// the front end merges a follow-on's over the order's latest (``TransactionResponseEncoding``).
    package var echo: RequestEcho
    /// The 3-D Secure authentication an AUTHORIZE or PAY carried (none for most).
    package var authentication: PaymentAuthentication?
    /// The risk assessment an AUTHORIZE, PAY or VERIFY got when the merchant's risk rules are on.
    package var risk: RiskAssessment?
    /// Issue 64: the provider a browser payment's order was paid through (its `card` is then
    /// empty); kept by the order's follow-ons as the card is.
    package var browserPayment: BrowserPaymentType? = nil
    /// Issue 64: `sourceOfFunds.provided.card.storedOnFile` as the order's payment sent it (nil:
    /// not sent, NOT_STORED); kept by the order's follow-ons as the card is.
    package var storedOnFile: StoredOnFile? = nil
    /// Issue 64: a CONFIRM_AT_MERCHANT browser payment's confirmation (nil for every other
    /// transaction, a payment confirmed at PayPal included).
    package var merchantConfirmation: MerchantConfirmation? = nil

    package init(
        merchantId: String,
        orderId: String,
        transactionId: String,
        version: APIVersion,
        transactionType: TransactionType,
        amount: Amount,
        transactionSource: String,
        transactionReference: String?,
        targetTransactionId: String?,
        card: CardDetails,
        outcome: AcquirerOutcome,
        order: OrderState,
        time: Date,
        echo: RequestEcho
    ) {
        self.merchantId = merchantId
        self.orderId = orderId
        self.transactionId = transactionId
        self.version = version
        self.transactionType = transactionType
        self.amount = amount
        self.transactionSource = transactionSource
        self.transactionReference = transactionReference
        self.targetTransactionId = targetTransactionId
        self.card = card
        self.outcome = outcome
        self.order = order
        self.time = time
        self.echo = echo
    }
}

/// A front end's wire format for transaction responses (MPGS JSON, Radial XML).
package protocol TransactionResponseEncoding: Sendable {
    /// Names the format, so a stored response is replayed only to the API that produced it.
    var format: ResponseFormat { get }
    /// The response body the client gets.
    func encode(_ receipt: TransactionReceipt) -> [UInt8]
    /// What a follow-on's response echoes: this request's echo over the order's description as
    /// its latest transaction left it.
    func followOnEcho(_ request: RequestEcho, latest: RequestEcho) -> RequestEcho
}

/// What the processors report as they go, for metrics; a front end supplies it.
package protocol PaymentObserver: Sendable {
    /// A transaction was stored (whatever the acquirer said).
    func transactionRecorded(operation: APIOperation, gatewayCode: GatewayCode)
    /// An Apple Pay token was verified and decrypted, or refused, in this time.
    func tokenDecrypted(succeeded: Bool, nanoseconds: UInt64)
    /// A request was refused for its Apple Pay token: by the library, Apple's steps 5 and 6, or
    /// the replay record. Front ends report only what they refuse before the core sees a token.
    func tokenRejected(_ rejection: TokenRejection)
}

/// The request a transaction belongs to: who, which order and transaction, and what an
/// identical retry must match.
package struct TransactionContext: Sendable {
    package var merchant: Merchant
    package var orderId: String
    package var transactionId: String
    package var version: APIVersion
    /// What an identical retry must match (``RequestFingerprinter``).
    package var fingerprint: RequestFingerprint
    /// The wire format the calling API answers in.
    package var encoding: any TransactionResponseEncoding

    package init(
        merchant: Merchant,
        orderId: String,
        transactionId: String,
        version: APIVersion,
        fingerprint: RequestFingerprint,
        encoding: any TransactionResponseEncoding
    ) {
        self.merchant = merchant
        self.orderId = orderId
        self.transactionId = transactionId
        self.version = version
        self.fingerprint = fingerprint
        self.encoding = encoding
    }

    /// An identical request gets the stored answer, byte for byte when this API gave it (an
    /// earlier release stored only MPGS bytes; another API renders the stored receipt), and
    /// anything else under the same ids is refused.
    package func retry(_ stored: StoredTransaction) throws(PaymentRejection) -> ProcessedTransaction {
        guard fingerprint.matches(stored.requestHash) else { throw .transactionIdReused(transactionId) }
        return .replayed(stored.receipt, responseBody: stored.responseBody(in: encoding))
    }

    /// The key the in-process order lock is taken on.
    var orderKey: String { "\(merchant.id)\u{0}\(orderId)" }
}
