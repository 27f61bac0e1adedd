import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix

/// One POST of a notification: the target's address check, the connection to exactly the
/// address checked, and a bounded read of the answer. Redirects are never followed: a 3xx is a
/// failed attempt, so a receiver cannot bounce the request to an address nobody checked.
struct NotificationSender: Sendable {
    /// A target as checked for one attempt: the address to connect to, nil when no check applies
    /// (sandbox mode, an allow-listed host) and the client resolves the name itself.
    struct CheckedTarget: Sendable {
        var target: NotificationTarget
        var address: IPAddress?
    }

    /// Connects by name: sandbox mode, allow-listed hosts, and URLs naming an address.
    let client: HTTPClient
    let pinned: PinnedHTTPClients
    let resolver: any HostResolver
    let production: Bool
    let allowedHosts: Set<String>
    let timeoutSeconds: Int

    /// The most of a receiver's answer that is read: its status is what counts.
    static let maxResponseBytes = 4096

    init(settings: NotificationSettings, production: Bool, resolver: any HostResolver = SystemHostResolver()) {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(Int64(settings.connectTimeoutSeconds)), read: .seconds(Int64(settings.timeoutSeconds)))
        )
        configuration.decompression = .disabled
        // One connection attempt per delivery attempt: the outbox's backoff, not the pool's, retries.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        pinned = PinnedHTTPClients(configuration: configuration)
        self.resolver = resolver
        self.production = production
        allowedHosts = settings.allowedHosts
        timeoutSeconds = settings.timeoutSeconds
    }

    func shutdown() async {
        try? await client.shutdown()
        await pinned.shutdown()
    }

    /// Parses the URL and, when the rules ask for it, resolves its host once and checks every
    /// address. Throws a ``NotificationTargetRefusal``, or another error when the resolver fails.
    func check(_ url: String) async throws -> CheckedTarget {
        let target = try NotificationTarget(parsing: url, production: production)
        // The hop to the resolver's threads only when there is something to resolve.
        guard target.needsAddressCheck(production: production, allowedHosts: allowedHosts) else { return CheckedTarget(target: target) }
        let (production, allowedHosts, resolver) = (production, allowedHosts, resolver)
        let address = try await NIOThreadPool.singleton.runIfActive {
            try target.checkAddresses(production: production, allowedHosts: allowedHosts, resolver: resolver)
        }
        return CheckedTarget(target: target, address: address)
    }

    /// The POST; never throws, every failure is a cause.
    func post(_ checked: CheckedTarget, headers: HTTPHeaders, body: [UInt8]) async -> NotificationDelivery.Outcome {
        var request = HTTPClientRequest(url: checked.target.url.absoluteString)
        request.method = .POST
        request.headers = headers
        request.body = .bytes(ByteBuffer(bytes: body))
        // An address in the URL is the address checked: nothing to pin.
        guard let address = checked.address, let host = checked.target.url.host, IPAddress(literal: host) == nil else {
            return await execute(request, on: client)
        }
        return await pinned.withClient(host: host, address: address) { client in await execute(request, on: client) }
    }

    private func execute(_ request: HTTPClientRequest, on client: HTTPClient) async -> NotificationDelivery.Outcome {
        do {
            let response = try await client.execute(request, timeout: .seconds(Int64(timeoutSeconds)))
            // Read at most a few KiB of the answer, then stop: a receiver cannot make us buffer more.
            var read = 0
            for try await part in response.body {
                read += part.readableBytes
                if read > Self.maxResponseBytes { break }
            }
            let code = Int(response.status.code)
            if (200..<300).contains(code) { return .delivered(code) }
            // The usual first-day mistake: the receiver compares the header with the wrong value.
            if code == 401 || code == 403 {
                return .failed(
                    "http_4xx",
                    reason: "the receiver refused the secret (HTTP \(code)): X-Notification-Secret carries the merchant's "
                        + "notification secret, which gateway check-config prints"
                )
            }
            return .failed("http_\(code / 100)xx", reason: "the receiver answered HTTP \(code)")
        } catch let error as HTTPClientError {
            switch error {
            case .connectTimeout: return .failed("connect_timeout")
            case .deadlineExceeded, .readTimeout: return .failed("timeout")
            default: return .failed("connection")
            }
        } catch {
            return .failed("connection")
        }
    }
}

extension IPAddress {
    /// The address a URL's host spells (IPv6 with or without brackets), nil for a name.
    init?(literal host: String) {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard let address = try? SocketAddress(ipAddress: bare, port: 0) else { return nil }
        switch address {
        case .v4(let v4): self = withUnsafeBytes(of: v4.address.sin_addr) { .v4(Array($0)) }
        case .v6(let v6): self = withUnsafeBytes(of: v6.address.sin6_addr) { .v6(Array($0)) }
        case .unixDomainSocket: return nil
        }
    }
}
