import Foundation
import GatewayCore
import GatewayStores
import NIOCore
import ServiceLifecycle

extension GatewayConfiguration {
    /// Opens the store the configured URL names, and the services the application must run for
    /// it (PostgreSQL's connection pool). The one place that maps a URL scheme to a store.
    /// `sealingLegacyFingerprints` turns the unkeyed request hashes earlier releases stored into
    /// keyed ones, once, as the store opens (``RequestFingerprinter/sealLegacy(unkeyedHash:)``).
    package func openStore(
        eventLoops: any EventLoopGroup,
        sealingLegacyFingerprints seal: (@Sendable ([UInt8]) -> [UInt8])? = nil
    ) throws -> (store: any TransactionStore, services: [any Service]) {
        switch try storeLocation {
        case .sqlite(let path):
            return (
                try SQLiteTransactionStore(path: path, eventLoops: eventLoops, replayRetention: replayRetention, sealingLegacyFingerprints: seal), []
            )
        case .postgres(let location):
            let store = PostgresTransactionStore(
                location: location,
                eventLoops: eventLoops,
                maxConnections: storeMaxConnections,
                timeout: storeTimeout,
                replayRetention: replayRetention,
                // The service's format and level, so PostgresNIO's lines are JSON like the rest.
                logger: GatewayService.makeLogger(self, label: "gateway.postgres"),
                runsOwnPool: false,
                sealingLegacyFingerprints: seal
            )
            return (store, [store.pool])
        }
    }

    /// Replay records outlive the signing window by an hour, so a token can never be replayed
    /// after its record is pruned: by then the signing-time check rejects it anyway.
    var replayRetention: TimeInterval { signingTimeWindow + 3600 }
}
