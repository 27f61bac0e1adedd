import Foundation

extension GatewayConfiguration {
    /// Opens the store the configured URL names. The one place that maps a URL scheme to a store.
    func openStore() throws -> any TransactionStore {
        try SQLiteTransactionStore(path: sqlitePath, replayRetention: replayRetention)
    }

    /// Replay records outlive the signing window by an hour, so a token can never be replayed
    /// after its record is pruned: by then the signing-time check rejects it anyway.
    var replayRetention: TimeInterval { signingTimeWindow + 3600 }
}
