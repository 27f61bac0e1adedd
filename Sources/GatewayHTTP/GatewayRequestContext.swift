import Hummingbird
import NIOCore

/// The request context of every route, whatever its API: Hummingbird's basics. The transaction route reads its
/// body up to `server.maxBodyBytes`; this cap bounds Hummingbird's own decoding helpers, unused today.
package struct GatewayRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage

    /// The peer's address (Merchant Administration counts failed logins per address).
    package var remoteAddress: String

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    package var maxUploadSize: Int { 64 * 1024 }
}
