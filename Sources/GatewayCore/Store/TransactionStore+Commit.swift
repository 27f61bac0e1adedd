import Logging

extension TransactionStore {
    /// Stores a processed transaction and returns what the client gets: its own once it is on
    /// disk, the stored one when an identical request won the race, or the rejection for the race it lost.
    func commit(
        _ record: TransactionRecord,
        _ context: TransactionContext,
        logger: Logger,
        observer: any PaymentObserver,
        card: String? = nil
    )
        async throws -> ProcessedTransaction
    {
        try committed(record, try await self.record(record), context, logger: logger, observer: observer, card: card)
    }

    /// What the client gets for a record the store answered with `outcome`.
    func committed(
        _ record: TransactionRecord,
        _ outcome: RecordOutcome,
        _ context: TransactionContext,
        logger: Logger,
        observer: any PaymentObserver,
        card: String? = nil
    ) throws -> ProcessedTransaction {
        switch outcome {
        case .recorded:
            observer.transactionRecorded(operation: record.operation, gatewayCode: record.gatewayCode)
            // swift-log builds the metadata only when the line is written: not at `warning`.
            logger.info("transaction processed", metadata: transactionProcessedMetadata(record, card: card))
            return .recorded(record)
        case .duplicateTransaction(let stored):
            return try context.retry(stored)
        case .applePayReplay:
            throw PaymentRejection.token(record.applePayReplay?.wallet == .googlePay ? .googlePayReplayed : .replayed)
        case .orderAlreadySucceeded:
            throw PaymentRejection.orderAlreadySucceeded
        case .orderChanged:
            throw PaymentRejection.orderChanged
        }
    }
}

private func transactionProcessedMetadata(_ record: TransactionRecord, card: String?) -> Logger.Metadata {
    var metadata: Logger.Metadata = [
        "merchant": "\(record.merchantId)", "orderId": "\(record.orderId)",
        "transactionId": "\(record.transactionId)", "operation": "\(record.operation.rawValue)",
        "transactionType": "\(record.transactionType.rawValue)", "gatewayCode": "\(record.gatewayCode.rawValue)",
        "result": "\(record.result.rawValue)",
    ]
    if let card { metadata["card"] = "\(card)" }  // masked 6+4 only
    return metadata
}
