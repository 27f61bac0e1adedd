import Foundation

extension GatewayConfiguration {
    /// Opens the store the configured URL names. The one place that maps a URL scheme to a store.
    func openStore() throws -> any TransactionStore {
        switch try storeLocation {
        case .sqlite(let path):
            try SQLiteTransactionStore(path: path, replayRetention: replayRetention)
        case .postgres(let location):
            PostgresTransactionStore(
                location: location,
                maxConnections: storeMaxConnections,
                timeout: storeTimeout,
                replayRetention: replayRetention,
                // The service's format and level, so PostgresNIO's lines are JSON like the rest.
                logger: GatewayService.makeLogger(self, label: "gateway.postgres")
            )
        }
    }

    /// Replay records outlive the signing window by an hour, so a token can never be replayed
    /// after its record is pruned: by then the signing-time check rejects it anyway.
    var replayRetention: TimeInterval { signingTimeWindow + 3600 }
}
