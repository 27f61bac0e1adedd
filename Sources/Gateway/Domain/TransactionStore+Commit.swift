import Logging

extension TransactionStore {
    /// Stores a processed transaction and returns the body the client gets: its own once it is on
    /// disk, the stored one when an identical request won the race, or the error for the race it lost.
    func commit(
        _ record: TransactionRecord,
        _ context: PaymentProcessor.Context,
        logger: Logger,
        metrics: GatewayMetrics,
        card: String? = nil
    )
        async throws -> [UInt8]
    {
        switch try await self.record(record) {
        case .recorded:
            var metadata: Logger.Metadata = [
                "merchant": "\(record.merchantId)", "orderId": "\(record.orderId)",
                "transactionId": "\(record.transactionId)", "operation": "\(record.operation)",
                "transactionType": "\(record.transactionType)", "gatewayCode": "\(record.gatewayCode)",
                "result": "\(record.result)",
            ]
            if let card { metadata["card"] = "\(card)" }  // masked 6+4 only
            logger.info("transaction processed", metadata: metadata)
            metrics.transaction(operation: record.operation, gatewayCode: record.gatewayCode)
            return record.responseBody
        case .duplicateTransaction(let stored):
            return try PaymentProcessor.retry(stored, context)
        case .applePayReplay:
            throw PaymentProcessor.replayed
        case .orderAlreadySucceeded:
            throw PaymentProcessor.orderAlreadySucceeded
        case .orderChanged:
            throw GatewayError.lockFailure
        }
    }
}
