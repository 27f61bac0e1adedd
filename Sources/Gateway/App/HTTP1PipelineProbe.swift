import GatewayTransport
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// A connection's HTTP/1.1 pipeline as `gateway serve` builds it (byte guards, NIO's decoder, the
/// conversion to the HTTP types, the front ends' malformed-request answers, the request server), with every
/// request answered 204 at once instead of by the router: for the request fuzzer
/// (`Sources/RequestFuzzer`), which installs it on an embedded channel and feeds it raw bytes.
package enum HTTP1PipelineProbe {
    /// Installs the pipeline on `channel`; `handedOn` sees each request head the router would get.
    package static func install(on channel: any Channel, handedOn: @escaping (HTTPRequest) -> Void) throws {
        let logger = Logger(label: "request-fuzz", factory: { _ in SwiftLogNoOpLogHandler() })
        let limits = GatewayConfiguration.ServerLimits().connectionLimits
        let admission = ConnectionAdmission(maxConnections: 16, logger: logger)
        let router = RouterCall(respond: { _, _ in Response(status: .noContent) }, serverName: "probe")
        admission.admit(channel)
        let http1 = GatewayHTTP1Channel(router: router, limits: limits, admission: admission, answers: FrontEndRefusals.answers)
        let deadlines = try http1.installByteGuards(on: channel)
        try GatewayHTTP1Channel.addHTTPHandlers(
            on: channel,
            limits: limits,
            deadlines: deadlines,
            admission: admission,
            answers: FrontEndRefusals.answers,
            logger: logger
        ) { request, server in
            handedOn(request.head)
            server.value.answer((HTTPResponse(status: .noContent), ByteBuffer()))
        }
    }
}
