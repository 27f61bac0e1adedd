import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A notification URL the gateway may send to. Production refuses plain `http` and, just before
/// each attempt, hosts resolving to internal addresses (unless allow-listed); sandbox mode
/// allows both, so a receiver on the developer's machine works.
struct NotificationTarget: Sendable, Hashable {
    let url: URL
    let host: String

    /// The URL's form alone (what configuration checks).
    init(parsing text: String, production: Bool) throws(NotificationTargetRefusal) {
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

    /// Checks where the host resolves now. Blocking (getaddrinfo): call it off the event loops.
    func checkAddresses(production: Bool, allowedHosts: Set<String>) throws(NotificationTargetRefusal) {
        guard needsAddressCheck(production: production, allowedHosts: allowedHosts) else { return }
        let addresses = Self.resolve(host)
        guard !addresses.isEmpty else { throw .unresolvable }
        if addresses.contains(where: \.isInternal) { throw .internalAddress }
    }

    private static func resolve(_ host: String) -> [IPAddress] {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(bare, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let address = current.pointee.ai_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                        withUnsafeBytes(of: ipv4.pointee.sin_addr) { addresses.append(.v4(Array($0))) }
                    }
                case AF_INET6:
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                        withUnsafeBytes(of: ipv6.pointee.sin6_addr) { addresses.append(.v6(Array($0))) }
                    }
                default: break
                }
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }
}

/// An address as bytes, classified by the ranges a notification must never reach.
enum IPAddress: Hashable {
    case v4([UInt8])
    case v6([UInt8])

    var isInternal: Bool {
        switch self {
        case .v4(let b):
            return b[0] == 0 || b[0] == 10 || b[0] == 127  // this network, private, loopback
                || (b[0] == 100 && (64...127).contains(b[1]))  // carrier-grade NAT
                || (b[0] == 169 && b[1] == 254)  // link-local, cloud metadata (169.254.169.254)
                || (b[0] == 172 && (16...31).contains(b[1])) || (b[0] == 192 && b[1] == 168)  // private
                || (b[0] == 192 && b[1] == 0 && b[2] == 0)  // IETF protocol assignments
                || (b[0] == 198 && (18...19).contains(b[1]))  // benchmarking
                || b[0] >= 224  // multicast, reserved, broadcast
        case .v6(let b):
            if b[0..<15].allSatisfy({ $0 == 0 }) { return true }  // :: and ::1
            if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xff && b[11] == 0xff {
                return IPAddress.v4(Array(b[12..<16])).isInternal  // IPv4-mapped
            }
            if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b { return IPAddress.v4(Array(b[12..<16])).isInternal }  // NAT64
            return (b[0] & 0xfe) == 0xfc  // unique local
                || (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)  // link-local
                || b[0] == 0xff  // multicast
                || (b[0] == 0xfd && b[1] == 0x00 && b[2] == 0x0e && b[3] == 0xc2)  // AWS metadata (fd00:ec2::254)
        }
    }
}
