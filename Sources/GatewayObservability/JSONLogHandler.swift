import ApplePayToken
import Foundation
import GatewayCore
import Logging
import Synchronization
import WireJSON

/// swift-log's handler for machines: one JSON object per line, with `timestamp` (UTC, ISO 8601
/// with milliseconds), `level`, `message`, `label` and every metadata value as a top-level string.
///
/// What is logged is chosen where it is logged (masked card numbers only, never headers,
/// tokens, keys or cryptograms); as a last guard any run of 13 or more digits, which could be a
/// card number (or a card number written in groups with spaces or dashes), is masked to its first
/// six and last four digits before it is written.
package struct JSONLogHandler: LogHandler {
    /// Where finished lines go; each call gets one whole line, newline included.
    package typealias Sink = @Sendable (String) -> Void

    let label: String
    let sink: Sink
    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?

    package init(label: String, sink: @escaping Sink = JSONLogHandler.standardOutput) {
        self.label = label
        self.sink = sink
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { $1 } }
        if let extra = event.metadata { fields.merge(extra) { $1 } }
        var line = "{\"timestamp\":\"\(Self.timestamp())\",\"level\":\"\(event.level.rawValue)\""
        line += ",\"message\":" + Self.quoted(Self.maskCardNumbers("\(event.message)"))
        line += ",\"label\":" + Self.quoted(label)
        for key in fields.keys.sorted() where !["timestamp", "level", "message", "label"].contains(key) {
            line += "," + Self.quoted(key) + ":" + Self.quoted(Self.maskCardNumbers("\(fields[key]!)"))
        }
        sink(line + "}\n")
    }

    private static let writeLock = Mutex(())

    /// One write per line, under a lock, so lines from concurrent requests never interleave.
    package static let standardOutput: Sink = { line in
        writeLock.withLock { _ in
            var bytes = Array(line.utf8)
            bytes.withUnsafeMutableBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
        }
    }

    static func timestamp(_ date: Date = Date()) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// A JSON string literal (`/` is left as it is, so URLs stay readable).
    static func quoted(_ text: String) -> String {
        JSONValue.stringLiteral(text)
    }

    /// Card numbers masked to their first six and last four digits (``CardNumberRedaction``).
    static func maskCardNumbers(_ text: String) -> String {
        CardNumberRedaction.mask(text)
    }
}
