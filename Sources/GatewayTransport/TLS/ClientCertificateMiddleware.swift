import Foundation
import GatewayHTTP
import Hummingbird
import NIOCore
import NIOSSL

/// On the certificate listener: reads the connection's client certificate and puts the
/// verdict in the context, where the merchant authentication finds it. An HTTP/2 stream asks
/// its connection, the parent channel that holds TLS.
package struct ClientCertificateMiddleware: RouterMiddleware {
    package typealias Context = GatewayRequestContext

    let trust: ClientCertificateTrust
    let clock: @Sendable () -> Date

    package init(trust: ClientCertificateTrust, clock: @escaping @Sendable () -> Date) {
        self.trust = trust
        self.clock = clock
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let presented = await Self.peerCertificate(context.channel)
        context.clientCertificate = trust.caller(presenting: presented.map { try? $0.toDERBytes() } ?? nil, at: clock())
        return try await next(request, context)
    }

    private static func peerCertificate(_ channel: any Channel) async -> NIOSSLCertificate? {
        if let certificate = try? await channel.nioSSL_peerCertificate().get() { return certificate }
        guard let parent = channel.parent else { return nil }
        return try? await parent.nioSSL_peerCertificate().get()
    }
}
