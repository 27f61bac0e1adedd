/// An address as bytes, classified by the ranges a notification must never reach.
package enum IPAddress: Hashable, Sendable, CustomStringConvertible {
    case v4([UInt8])
    case v6([UInt8])

    /// Why an address is internal: one case per range, so a refusal says which rule it met.
    package enum InternalRange: Hashable, Sendable {
        case thisNetwork, privateNetwork, loopback, carrierGradeNAT, linkLocal, protocolAssignments, benchmarking
        case multicastOrReserved
        case unspecified, ipv4Mapped, nat64, uniqueLocal, awsMetadata
        /// `::a.b.c.d` (deprecated, RFC 4291): stacks route it as the IPv4 address it embeds.
        case ipv4Compatible
        /// `2002:AABB:CCDD::/48` (RFC 3056) embedding an internal IPv4 address.
        case sixToFour
        /// `2001:0::/32` (RFC 4380) whose client (the last 32 bits, inverted) is internal.
        case teredo
        /// `100::/64`, discard-only (RFC 6666).
        case discard
        /// `fec0::/10`, site-local (deprecated, RFC 3879): still routed inside some networks.
        case siteLocal

        var reason: String {
            switch self {
            case .thisNetwork: "'this network' (0.0.0.0/8)"
            case .privateNetwork: "private (10/8, 172.16/12, 192.168/16)"
            case .loopback: "loopback"
            case .carrierGradeNAT: "carrier-grade NAT (100.64/10)"
            case .linkLocal: "link-local or cloud metadata"
            case .protocolAssignments: "IETF protocol assignments (192.0.0/24)"
            case .benchmarking: "benchmarking (198.18/15)"
            case .multicastOrReserved: "multicast, reserved or broadcast"
            case .unspecified: "unspecified or loopback (::, ::1)"
            case .ipv4Mapped: "IPv4-mapped internal address (::ffff:a.b.c.d)"
            case .nat64: "NAT64 of an internal address (64:ff9b::/96)"
            case .uniqueLocal: "unique local (fc00::/7)"
            case .awsMetadata: "cloud metadata (fd00:ec2::254)"
            case .ipv4Compatible: "IPv4-compatible (::a.b.c.d)"
            case .sixToFour: "6to4 of an internal address (2002::/16)"
            case .teredo: "Teredo of an internal address (2001::/32)"
            case .discard: "discard-only (100::/64)"
            case .siteLocal: "site-local (fec0::/10)"
            }
        }
    }

    var isInternal: Bool { internalRange != nil }

    /// The internal range this address is in, nil for an address a notification may reach.
    var internalRange: InternalRange? {
        switch self {
        case .v4(let b): Self.internalRange(v4: b)
        case .v6(let b): Self.internalRange(v6: b)
        }
    }

    private static func internalRange(v4 b: [UInt8]) -> InternalRange? {
        if b[0] == 0 { return .thisNetwork }
        if b[0] == 10 || (b[0] == 172 && (16...31).contains(b[1])) || (b[0] == 192 && b[1] == 168) { return .privateNetwork }
        if b[0] == 127 { return .loopback }
        if b[0] == 100 && (64...127).contains(b[1]) { return .carrierGradeNAT }
        if b[0] == 169 && b[1] == 254 { return .linkLocal }  // cloud metadata: 169.254.169.254
        if b[0] == 192 && b[1] == 0 && b[2] == 0 { return .protocolAssignments }
        if b[0] == 198 && (18...19).contains(b[1]) { return .benchmarking }
        if b[0] >= 224 { return .multicastOrReserved }
        return nil
    }

    /// The IPv6 forms that carry an IPv4 address are judged by that address: a stack or a relay
    /// delivers them there.
    private static func internalRange(v6 b: [UInt8]) -> InternalRange? {
        let embedded = { (range: Range<Int>) in internalRange(v4: Array(b[range])) }
        if b[0..<15].allSatisfy({ $0 == 0 }) { return .unspecified }  // :: and ::1
        if b[0..<12].allSatisfy({ $0 == 0 }) { return .ipv4Compatible }  // all of ::/96: deprecated, never a public receiver
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xff && b[11] == 0xff { return embedded(12..<16).map { _ in .ipv4Mapped } }
        if b[0..<4] == [0x00, 0x64, 0xff, 0x9b] { return embedded(12..<16).map { _ in .nat64 } }
        if b[0] == 0x20 && b[1] == 0x02 { return embedded(2..<6).map { _ in .sixToFour } }
        if b[0..<4] == [0x20, 0x01, 0x00, 0x00] {
            return internalRange(v4: b[12..<16].map { $0 ^ 0xff }).map { _ in .teredo }
        }
        if b[0] == 0x01 && b[1..<8].allSatisfy({ $0 == 0 }) { return .discard }
        if b[0..<4] == [0xfd, 0x00, 0x0e, 0xc2] { return .awsMetadata }
        if (b[0] & 0xfe) == 0xfc { return .uniqueLocal }
        if b[0] == 0xfe && (b[1] & 0xc0) == 0x80 { return .linkLocal }
        if b[0] == 0xfe && (b[1] & 0xc0) == 0xc0 { return .siteLocal }
        if b[0] == 0xff { return .multicastOrReserved }
        return nil
    }

    /// The address as `SocketAddress(ipAddress:)` and a URL's host read it (IPv6 without brackets).
    package var description: String {
        switch self {
        case .v4(let b): return b.map(String.init).joined(separator: ".")
        case .v6(let b):
            return stride(from: 0, to: 16, by: 2).map { String(UInt16(b[$0]) << 8 | UInt16(b[$0 + 1]), radix: 16) }
                .joined(separator: ":")
        }
    }
}
