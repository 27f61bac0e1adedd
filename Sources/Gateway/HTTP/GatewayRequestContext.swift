import Hummingbird

/// The request context of every route: Hummingbird's basics, with a body cap that fits MPGS
/// requests (a token is about 4 KB) and leaves no room for abuse.
struct GatewayRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    var maxUploadSize: Int { 64 * 1024 }
}
