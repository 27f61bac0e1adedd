import Foundation

/// A notification URL the gateway may send to. Production refuses plain `http` and, just before
/// each attempt, hosts resolving to internal addresses (unless allow-listed); sandbox mode
/// allows both, so a receiver on the developer's machine works.
package struct NotificationTarget: Sendable, Hashable {
    let url: URL
    let host: String

    /// The URL's form alone (what configuration checks).
    package init(parsing text: String, production: Bool) throws(NotificationTargetRefusal) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty
        else { throw .notAURL }
        guard scheme == "https" || scheme == "http" else { throw .unsupportedScheme }
        if production, scheme == "http" { throw .plainHTTP }
        self.url = url
        self.host = host.lowercased()
    }

    /// Whether an attempt must resolve the host first: only production checks addresses, and
    /// not those of an allow-listed host.
    func needsAddressCheck(production: Bool, allowedHosts: Set<String>) -> Bool {
        production && !allowedHosts.contains(host)
    }

    /// Resolves the host once and checks every address it answers: the address to connect to
    /// (the first checked one), or nil when no check applies and the client may resolve the
    /// name itself. Blocking (the resolver): call it off the event loops.
    @discardableResult
    func checkAddresses(
        production: Bool,
        allowedHosts: Set<String>,
        resolver: any HostResolver = SystemHostResolver()
    ) throws(NotificationTargetRefusal) -> IPAddress? {
        guard needsAddressCheck(production: production, allowedHosts: allowedHosts) else { return nil }
        let addresses = resolver.addresses(of: host)
        guard let first = addresses.first else { throw .unresolvable }
        if let range = addresses.lazy.compactMap(\.internalRange).first { throw .internalAddress(range) }
        return first
    }
}
