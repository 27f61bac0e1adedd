import Testing

@testable import Gateway

/// The server-side request forgery rules: what production refuses to notify, and what sandbox allows.
@Suite("Notification targets")
struct NotificationTargetTests {
    @Test(
        "internal addresses are refused in production",
        arguments: [
            "127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "0.0.0.0", "100.64.0.1",
            "224.0.0.1", "[::1]", "[fe80::1]", "[fd00:ec2::254]", "[fc00::1]", "[::ffff:127.0.0.1]", "[::ffff:10.0.0.1]", "localhost",
        ]
    )
    func internalRefused(host: String) throws {
        let target = try NotificationTarget(parsing: "https://\(host)/hook", production: true)
        #expect(throws: NotificationTargetRefusal.internalAddress) {
            try target.checkAddresses(production: true, allowedHosts: [])
        }
        // Sandbox mode, or an operator's allow-list, lets it through.
        try target.checkAddresses(production: false, allowedHosts: [])
        try target.checkAddresses(production: true, allowedHosts: [target.host])
    }

    @Test("public addresses pass", arguments: ["8.8.8.8", "172.32.0.1", "192.169.0.1", "[2001:4860:4860::8888]"])
    func publicAllowed(host: String) throws {
        try NotificationTarget(parsing: "https://\(host)/hook", production: true).checkAddresses(production: true, allowedHosts: [])
    }

    @Test("production refuses plain http and anything but an absolute http(s) URL; sandbox takes http")
    func schemes() throws {
        #expect(throws: NotificationTargetRefusal.plainHTTP) { try NotificationTarget(parsing: "http://shop.example/hook", production: true) }
        #expect(throws: NotificationTargetRefusal.unsupportedScheme) { try NotificationTarget(parsing: "ftp://shop.example/", production: false) }
        #expect(throws: NotificationTargetRefusal.notAURL) { try NotificationTarget(parsing: "/relative", production: false) }
        #expect(try NotificationTarget(parsing: "http://127.0.0.1:9/hook", production: false).host == "127.0.0.1")
        #expect(NotificationTargetRefusal.plainHTTP.isPermanent && !NotificationTargetRefusal.internalAddress.isPermanent)
    }
}
