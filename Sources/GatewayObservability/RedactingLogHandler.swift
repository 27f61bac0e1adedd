import GatewayCore
import Logging

/// Any handler (the text format's `StreamLogHandler`) with the JSON handler's last guard: card
/// numbers in the message and in metadata values are masked before the wrapped handler sees them.
package struct RedactingLogHandler<Wrapped: LogHandler>: LogHandler {
    var wrapped: Wrapped

    package init(wrapped: Wrapped) {
        self.wrapped = wrapped
    }

    package var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    package var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    package func log(event: LogEvent) {
        var event = event
        event.message = "\(CardNumberRedaction.mask("\(event.message)"))"
        event.metadata = event.metadata.map { metadata in metadata.mapValues { .string(CardNumberRedaction.mask("\($0)")) } }
        var wrapped = wrapped
        // The handler's own metadata (set through this wrapper) is masked the same way.
        wrapped.metadata = wrapped.metadata.mapValues { .string(CardNumberRedaction.mask("\($0)")) }
        wrapped.log(event: event)
    }
}
