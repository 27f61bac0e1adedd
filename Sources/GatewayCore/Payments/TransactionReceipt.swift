import Foundation

/// Everything a transaction response says, typed. The front end's ``TransactionResponseEncoding``
/// turns it into the exact bytes the client gets, which are stored with the transaction.
package struct TransactionReceipt: Sendable {
    /// Where the response's card description comes from.
    package enum Card: Sendable {
        /// An initial transaction: the card it was paid with.
        case details(CardDetails)
        /// A follow-on transaction: the card as the order's first response described it.
        case asFirstRecorded(responseBody: [UInt8]?)
    }

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
    package var card: Card
    package var outcome: AcquirerOutcome
    package var order: OrderState
    package var time: Date
    /// What the response returns of this request.
    package var echo: RequestEcho = RequestEcho()
    /// A follow-on: the order's latest response, whose description of the order (billing,
    /// customer, ...) this response repeats.
    package var earlierResponseBody: [UInt8]? = nil
}

/// Turns a receipt into the response body the client gets (MPGS JSON for the REST front end).
package protocol TransactionResponseEncoding: Sendable {
    func encode(_ receipt: TransactionReceipt) -> [UInt8]
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

    package init(
        merchant: Merchant,
        orderId: String,
        transactionId: String,
        version: APIVersion,
        fingerprint: RequestFingerprint
    ) {
        self.merchant = merchant
        self.orderId = orderId
        self.transactionId = transactionId
        self.version = version
        self.fingerprint = fingerprint
    }

    /// An identical request gets the stored response; anything else under the same ids is refused.
    package func retry(_ stored: StoredTransaction) throws(PaymentRejection) -> [UInt8] {
        guard fingerprint.matches(stored.requestHash) else { throw .transactionIdReused(transactionId) }
        return stored.responseBody
    }

    /// The key the in-process order lock is taken on.
    var orderKey: String { "\(merchant.id)\u{0}\(orderId)" }
}
