import Testing

@testable import Gateway
@testable import GatewayNotifications

/// The server-side request forgery rules: what production refuses to notify, and what sandbox allows.
@Suite("Notification targets")
struct NotificationTargetTests {
    /// The range a production check refuses `host` for (resolved by the system), nil when it passes.
    static func refusedRange(_ host: String) throws -> IPAddress.InternalRange? {
        let target = try NotificationTarget(parsing: "https://\(host)/hook", production: true)
        do {
            try target.checkAddresses(production: true, allowedHosts: [])
            return nil
        } catch {
            guard case .internalAddress(let range) = error else { throw error }
            return range
        }
    }

    @Test(
        "internal addresses are refused in production",
        arguments: [
            "127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "0.0.0.0", "100.64.0.1",
            "224.0.0.1", "[::1]", "[fe80::1]", "[fd00:ec2::254]", "[fc00::1]", "[::ffff:127.0.0.1]", "[::ffff:10.0.0.1]", "localhost",
        ]
    )
    func internalRefused(host: String) throws {
        #expect(try Self.refusedRange(host) != nil)
        let target = try NotificationTarget(parsing: "https://\(host)/hook", production: true)
        // Sandbox mode, or an operator's allow-list, lets it through (and pins nothing).
        #expect(try target.checkAddresses(production: false, allowedHosts: []) == nil)
        #expect(try target.checkAddresses(production: true, allowedHosts: [target.host]) == nil)
    }

    /// Issue 59: the IPv6 forms that reach an internal IPv4 address, and the IPv6 ranges that are
    /// internal themselves. Each resolved by the system resolver from its literal, as a URL names it.
    @Test(
        "IPv6 forms of internal addresses are refused, each with its range",
        arguments: [
            ("[::127.0.0.1]", IPAddress.InternalRange.ipv4Compatible),
            ("[::10.0.0.1]", .ipv4Compatible),
            ("[::8.8.8.8]", .ipv4Compatible),  // all of ::/96: deprecated, no public receiver there
            ("[2002:7f00:1::]", .sixToFour),  // 6to4 of 127.0.0.1
            ("[2002:a00:1::1]", .sixToFour),  // 10.0.0.1
            ("[2002:c0a8:101::]", .sixToFour),  // 192.168.1.1
            ("[2002:a9fe:a9fe::]", .sixToFour),  // 169.254.169.254
            ("[2001:0:4136:e378:8000:63bf:80ff:fffe]", .teredo),  // client 127.0.0.1 (bits inverted)
            ("[2001:0:4136:e378:8000:63bf:f5ff:fffe]", .teredo),  // client 10.0.0.1
            ("[2001:0:4136:e378:8000:63bf:5601:5601]", .teredo),  // client 169.254.169.254
            ("[100::1]", .discard),
            ("[100::ffff:ffff:ffff:ffff]", .discard),
            ("[fec0::1]", .siteLocal),
            ("[feff:ffff::1]", .siteLocal),
            ("[64:ff9b::7f00:1]", .nat64),
            ("[::ffff:169.254.169.254]", .ipv4Mapped),
        ]
    )
    func ipv6FormsRefused(host: String, range: IPAddress.InternalRange) throws {
        #expect(try Self.refusedRange(host) == range)
        let problem = NotificationTargetRefusal.internalAddress(range).problem
        #expect(problem.contains(range.reason) && problem.contains("notifications.allowedHosts"))
    }

    @Test(
        "public addresses pass, in every form",
        arguments: [
            "8.8.8.8", "172.32.0.1", "192.169.0.1", "[2001:4860:4860::8888]",
            "[2002:808:808::1]",  // 6to4 of 8.8.8.8
            "[2001:0:4136:e378:8000:63bf:f7f7:f7f7]",  // Teredo, client 8.8.8.8
            "[100:0:0:1::1]",  // just past 100::/64
        ]
    )
    func publicAllowed(host: String) throws {
        #expect(try Self.refusedRange(host) == nil)
        // The address to connect to is the one checked.
        let target = try NotificationTarget(parsing: "https://\(host)/hook", production: true)
        #expect(try target.checkAddresses(production: true, allowedHosts: []) == IPAddress(literal: target.host))
    }

    @Test("an address pinned for a connection is written as it was resolved", arguments: ["8.8.8.8", "2001:4860:4860::8888", "2002:808:808::1"])
    func addressText(literal: String) throws {
        let address = try #require(IPAddress(literal: literal))
        #expect(IPAddress(literal: address.description) == address)
    }

    @Test("every answer is checked: one internal address among public ones refuses the host")
    func everyAnswerChecked() throws {
        let resolver = ScriptedResolver([[.v4([8, 8, 8, 8]), .v4([127, 0, 0, 1])]])
        let target = try NotificationTarget(parsing: "https://shop.example/hook", production: true)
        #expect(throws: NotificationTargetRefusal.internalAddress(.loopback)) {
            try target.checkAddresses(production: true, allowedHosts: [], resolver: resolver)
        }
        #expect(throws: NotificationTargetRefusal.unresolvable) {
            try target.checkAddresses(production: true, allowedHosts: [], resolver: ScriptedResolver([[]]))
        }
    }

    @Test("production refuses plain http and anything but an absolute http(s) URL; sandbox takes http")
    func schemes() throws {
        #expect(throws: NotificationTargetRefusal.plainHTTP) { try NotificationTarget(parsing: "http://shop.example/hook", production: true) }
        #expect(throws: NotificationTargetRefusal.unsupportedScheme) { try NotificationTarget(parsing: "ftp://shop.example/", production: false) }
        #expect(throws: NotificationTargetRefusal.notAURL) { try NotificationTarget(parsing: "/relative", production: false) }
        #expect(try NotificationTarget(parsing: "http://127.0.0.1:9/hook", production: false).host == "127.0.0.1")
        #expect(NotificationTargetRefusal.plainHTTP.isPermanent && !NotificationTargetRefusal.internalAddress(.loopback).isPermanent)
    }
}
