import GatewayHTTP
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// One request through the router, as Hummingbird's application does it: a 500 for an error no
/// route turned into a response, the server's name, and the body gathered whole (the gateway's
/// bodies are small JSON documents and pages). Both protocols' channels answer through it.
package struct RouterCall: Sendable {
    package typealias Respond = @Sendable (Request, GatewayRequestContext) async throws -> Response
    /// A response's head and body; nil when its body failed part-way.
    package typealias Answer = (head: HTTPResponse, body: ByteBuffer)?

    let respond: Respond
    let serverName: String
    /// Traces each request's stages (`log.stageTrace`), when set.
    let tracer: RequestTracer?
    /// The executor preference of the task that built the server, which request tasks keep.
    /// None in the gateway itself: the event loops are the global executor. A test that runs
    /// its server on threads of its own (`.blocksThreads`) has its requests answered there too,
    /// not queued behind every other test on Swift's two-thread pool: there one hop waited up to
    /// 8 s early in a full run, and a Hosted Checkout request outlasted its client's 20 s in CI.
    let executor: (any TaskExecutor)?

    package init(respond: @escaping Respond, serverName: String, tracer: RequestTracer? = nil) {
        self.respond = respond
        self.serverName = serverName
        self.tracer = tracer
        executor = Self.currentTaskExecutor()
    }

    private static func currentTaskExecutor() -> (any TaskExecutor)? {
        guard #available(macOS 26.4, *) else { return nil }
        return withUnsafeCurrentTask { $0?.unownedTaskExecutor?.asTaskExecutor() }
    }

    /// Answers `request` in a task of its own, then gives the answer to `deliver` on the
    /// channel's event loop. The task starts on that loop (the event loops are Swift's global
    /// executor, and it sticks to the loop it is enqueued from), so a request crosses no thread on
    /// its way in or out. With an `executor` preference (tests only), it runs there.
    package func start(
        _ request: Request,
        on channel: any Channel,
        logger: Logger,
        deliver: @escaping @Sendable (Answer) -> Void
    ) {
        Task(executorPreference: executor) {
            let trace = tracer?(request.uri.path)
            let answer =
                if let trace {
                    await trace.run { await self.answer(request, on: channel, logger: logger) }
                } else {
                    await answer(request, on: channel, logger: logger)
                }
            // A closure only for the other loop's queue: on the loop, answered without allocating one.
            if channel.eventLoop.inEventLoop {
                finish(answer, trace, deliver)
            } else {
                channel.eventLoop.execute { finish(answer, trace, deliver) }
            }
        }
    }

    /// Hands the answer to the connection, then tells the trace, when there is one.
    private func finish(_ answer: Answer, _ trace: (any RequestTrace)?, _ deliver: @Sendable (Answer) -> Void) {
        deliver(answer)
        trace?.answered()
    }

    package func answer(_ request: Request, on channel: any Channel, logger: Logger) async -> Answer {
        // RequestObservationMiddleware names the request on its logger (`requestId`).
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

    /// A connection's handlers serve it; its task only waits for it to close. Cancelled (the
    /// shutdown's grace period is over), the connection closes, whatever it was doing.
    package static func untilClosed(_ channel: any Channel) async {
        await withTaskCancellationHandler {
            try? await channel.closeFuture.get()
        } onCancel: {
            channel.close(promise: nil)
        }
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
