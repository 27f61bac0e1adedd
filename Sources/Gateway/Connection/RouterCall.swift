import GatewayHTTP
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// One request through the router, as Hummingbird's application does it: a request id on the
/// logger, a 500 for an error no route turned into a response, the server's name, and the body
/// gathered whole (the gateway's bodies are small JSON documents and pages).
enum RouterCall {
    typealias Respond = @Sendable (Request, GatewayRequestContext) async throws -> Response

    /// The response's head and body; nil when its body failed part-way.
    static func answer(
        _ request: Request,
        on channel: any Channel,
        respond: Respond,
        serverName: String,
        logger: Logger
    ) async -> (head: HTTPResponse, body: ByteBuffer)? {
        var logger = logger
        logger[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())
        let context = GatewayRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
        var response: Response
        do {
            response = try await respond(request, context)
        } catch {
            logger.debug("Unrecognised Error", metadata: ["error.type": "\(error)"])
            response = Response(status: .internalServerError)
        }
        response.headers[.server] = serverName
        let body = CollectedBody()
        do {
            try await response.body.write(CollectingBodyWriter(into: body))
        } catch {
            logger.debug("Response body failed: \(error)")
            return nil
        }
        return (response.head, body.buffer)
    }

    /// Runs `work` on `loop`, at once when already there.
    static func onLoop(_ loop: any EventLoop, _ work: @escaping @Sendable () -> Void) {
        if loop.inEventLoop { work() } else { loop.execute(work) }
    }
}

/// Only ever used by the one task answering its request.
private final class CollectedBody: @unchecked Sendable {
    var buffer = ByteBuffer()
}

private struct CollectingBodyWriter: ResponseBodyWriter {
    let body: CollectedBody

    init(into body: CollectedBody) { self.body = body }

    mutating func write(_ buffer: ByteBuffer) async throws {
        if body.buffer.readableBytes == 0 {
            body.buffer = buffer
        } else {
            var buffer = buffer
            body.buffer.writeBuffer(&buffer)
        }
    }

    mutating func write(contentsOf buffers: some Sequence<ByteBuffer>) async throws {
        for buffer in buffers { try await write(buffer) }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
