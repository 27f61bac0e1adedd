import Foundation
import Logging

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
                logger: postgresLogger
            )
        }
    }

    private var postgresLogger: Logger {
        var logger = Logger(label: "gateway.postgres")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        return logger
    }

    /// Replay records outlive the signing window by an hour, so a token can never be replayed
    /// after its record is pruned: by then the signing-time check rejects it anyway.
    var replayRetention: TimeInterval { signingTimeWindow + 3600 }
}
