import Logging
import Synchronization

/// Log records written under test, kept in memory: each message with its metadata.
final class LogCollector: Sendable {
    struct Record: Sendable {
        var message: String
        var metadata: [String: String]
    }

    private let records = Mutex<[Record]>([])

    var logger: Logger {
        var logger = Logger(label: "test") { _ in CollectingHandler(collector: self) }
        logger.logLevel = .debug
        return logger
    }

    var all: [Record] { records.withLock { $0 } }

    fileprivate func append(_ record: Record) { records.withLock { $0.append(record) } }
}

private struct CollectingHandler: LogHandler {
    let collector: LogCollector
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        collector.append(.init(message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
    }
}
