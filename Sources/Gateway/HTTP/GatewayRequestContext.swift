import Hummingbird

/// The request context of every route: Hummingbird's basics. The transaction route reads its
/// body up to `server.maxBodyBytes`; this cap bounds Hummingbird's own decoding helpers, unused today.
struct GatewayRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    var maxUploadSize: Int { 64 * 1024 }
}
