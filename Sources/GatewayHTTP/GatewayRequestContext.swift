import Hummingbird
import NIOCore

/// The request context of every route, whatever its API: Hummingbird's basics. The transaction route reads its
/// body up to `server.maxBodyBytes`; this cap bounds Hummingbird's own decoding helpers, unused today.
package struct GatewayRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage

    /// The connection (an HTTP/2 stream's own channel): the certificate listener reads the
    /// client certificate from it.
    package let channel: any Channel
    /// Issue 32: set on the certificate listener only, before any route runs.
    package var clientCertificate: ClientCertificateCaller?
    /// The peer's address (Merchant Administration counts failed logins per address).
    package var remoteAddress: String

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
        remoteAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    package var maxUploadSize: Int { 64 * 1024 }
}
