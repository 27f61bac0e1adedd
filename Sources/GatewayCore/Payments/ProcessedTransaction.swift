/// What processing a transaction request came to, typed: this request's transaction as the core
/// decided and the store recorded it, or an identical earlier request's answer, replayed from
/// the store. Front ends act on the cases; they never read a decision back out of the body.
package enum ProcessedTransaction: Sendable {
    /// This request's transaction, now stored.
    case recorded(TransactionRecord)
    /// The stored answer to an identical earlier request (a retry), and its transaction.
    case replayed(TransactionReceipt, responseBody: [UInt8])

    /// The bytes the client gets: the same for the first answer and every retry.
    package var responseBody: [UInt8] {
        switch self {
        case .recorded(let record): record.response.bytes
        case .replayed(_, let body): body
        }
    }

    /// The transaction the answer is about, typed.
    package var receipt: TransactionReceipt {
        switch self {
        case .recorded(let record): record.receipt
        case .replayed(let receipt, _): receipt
        }
    }

    /// Whether this request's own transaction succeeded. A replay moves nothing new: false.
    package var recordedSuccess: Bool {
        if case .recorded(let record) = self { record.succeeded } else { false }
    }
}
