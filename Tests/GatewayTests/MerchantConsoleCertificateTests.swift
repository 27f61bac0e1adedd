import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import Gateway
@testable import GatewayCore

/// The Apple Pay certificate page through HTTP: a key and CSR made on the server, the CSR
/// downloaded and signed by the sandbox authority as Apple would, the certificate uploaded and
/// checked as `gateway applepay-identity install` checks it; refusals change nothing.
@Suite("Merchant Administration: Apple Pay certificates")
struct MerchantConsoleCertificateTests {
    static let identifier = "merchant.com.example.console"
    let console = MerchantConsoleTests()

    /// The sandbox authority's signature on a CSR, as `applepay-identity sandbox-sign` makes it.
    func sandboxSign(_ csr: String, for identifier: String, _ services: GatewayDependencies) throws -> [UInt8] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("console-\(UUID().uuidString).certSigningRequest")
        try Data(csr.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try ApplePayIdentitySandbox.sign(
            requestPath: file.path,
            merchantIdentifier: identifier,
            configFile: nil,
            environment: ["GATEWAY_SANDBOX_AUTHORITY_DIRECTORY": services.configuration.sandboxAuthorityDirectory]
        )
    }

    @Test("an admin makes a key, downloads its CSR and installs Apple's certificate for it")
    func install() async throws {
        let services = try await console.console()
        try await console.application(services).test(.router) { client in
            try await console.addOperators(services)
            let browser = ConsoleBrowser(client)
            _ = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: MerchantConsoleTests.adminPassword)
            let page = try await browser.get("/ma/applepay")
            #expect(page.status == .ok)
            let csrf = page.hidden("csrf") ?? ""
            let created = try await browser.post("/ma/applepay/keys", [("csrf", csrf), ("merchantIdentifier", Self.identifier)])
            #expect(created.status == .ok)
            #expect(created.html.contains("Key ec created"))
            #expect(created.html.contains("awaiting Apple&#39;s certificate") || created.html.contains("awaiting Apple's certificate"))

            let csr = try await browser.get("/ma/applepay/\(Self.identifier)/ec.certSigningRequest")
            #expect(csr.status == .ok)
            #expect(csr.contentType == "application/pkcs10")
            #expect(csr.html.hasPrefix("-----BEGIN CERTIFICATE REQUEST-----"))
            #expect(!csr.html.contains("PRIVATE KEY"))

            // Issued for another merchant identifier: refused, nothing stored.
            let other = try sandboxSign(csr.html, for: "merchant.com.example.other", services)
            let refused = try await browser.upload(
                "/ma/applepay/certificates",
                [("csrf", csrf), ("merchantIdentifier", Self.identifier)],
                file: ("certificate", "apple_pay.cer", other)
            )
            #expect(refused.status == .badRequest)
            #expect(refused.html.contains("not for \(Self.identifier)"))

            let certificate = try sandboxSign(csr.html, for: Self.identifier, services)
            let installed = try await browser.upload(
                "/ma/applepay/certificates",
                [("csrf", csrf), ("merchantIdentifier", Self.identifier)],
                file: ("certificate", "apple_pay.cer", certificate)
            )
            #expect(installed.status == .ok)
            #expect(installed.html.contains("matches key ec and is installed"))
            let key = services.consoleIdentityRoot.appending(path: "\(TestGateway.merchantId)/\(Self.identifier)/ec-key.pem")
            let mode = try FileManager.default.attributesOfItem(atPath: key.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)

            // Without the CSRF token the upload is refused like any other form.
            let forged = try await browser.upload(
                "/ma/applepay/certificates",
                [("merchantIdentifier", Self.identifier)],
                file: ("certificate", "apple_pay.cer", certificate)
            )
            #expect(forged.status == .forbidden)

            let retired = try await browser.post("/ma/applepay/\(Self.identifier)/ec/retire", [("csrf", csrf)])
            #expect(retired.status == .ok)
            #expect(!FileManager.default.fileExists(atPath: key.path))
            #expect(try await browser.get("/ma/audit").html.contains("APPLE_PAY_CERTIFICATE_INSTALLED"))
        }
    }

    @Test("the page warns of a certificate expiring within 30 days, and not of one expiring later")
    func expiryWarning() async throws {
        let services = try await console.console()
        try await console.application(services).test(.router) { client in
            try await console.addOperators(services)
            let browser = ConsoleBrowser(client)
            _ = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: MerchantConsoleTests.adminPassword)
            let csrf = try await browser.get("/ma/applepay").hidden("csrf") ?? ""
            _ = try await browser.post("/ma/applepay/keys", [("csrf", csrf), ("merchantIdentifier", Self.identifier)])
            let csr = try await browser.get("/ma/applepay/\(Self.identifier)/ec.certSigningRequest")
            let installed = try await browser.upload(
                "/ma/applepay/certificates",
                [("csrf", csrf), ("merchantIdentifier", Self.identifier)],
                file: ("certificate", "apple_pay.cer", try sandboxSign(csr.html, for: Self.identifier, services))
            )
            #expect(installed.html.contains("is installed"))
            let identities = ConsoleApplePayIdentities(root: services.consoleIdentityRoot).identities(merchantId: TestGateway.merchantId)
            let expiry = try #require(identities.first?.notValidAfter)
            // The console's clock moved to 31, then 29, days before the expiry; a new login each
            // time, the sessions having ended long before.
            for (daysLeft, warned) in [(31.0, false), (29.0, true)] {
                console.clock.advance(by: expiry.timeIntervalSince(console.clock.now()) - daysLeft * 86_400)
                let login = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: MerchantConsoleTests.adminPassword)
                #expect(login.status == .seeOther)
                let page = try await browser.get("/ma/applepay")
                #expect(page.html.contains(Self.identifier))
                #expect(page.html.contains("expires within 30 days") == warned, "\(daysLeft) days left")
            }
        }
    }

    @Test("a viewer cannot make keys, and another merchant's operators see none of them")
    func refusals() async throws {
        let services = try await console.console()
        try await console.application(services).test(.router) { client in
            try await console.addOperators(services)
            let admin = ConsoleBrowser(client)
            _ = try await admin.login(merchant: TestGateway.merchantId, name: "alice", password: MerchantConsoleTests.adminPassword)
            let csrf = try await admin.get("/ma/applepay").hidden("csrf") ?? ""
            _ = try await admin.post("/ma/applepay/keys", [("csrf", csrf), ("merchantIdentifier", Self.identifier)])

            let viewer = ConsoleBrowser(client)
            _ = try await viewer.login(merchant: TestGateway.merchantId, name: "victor", password: MerchantConsoleTests.viewerPassword)
            let page = try await viewer.get("/ma/applepay")
            #expect(page.html.contains(Self.identifier))
            #expect(!page.html.contains("Create key and CSR"))
            let refused = try await viewer.post(
                "/ma/applepay/keys",
                [("csrf", page.hidden("csrf") ?? ""), ("merchantIdentifier", "merchant.com.example.viewer")]
            )
            #expect(refused.status == .forbidden)
            #expect(!(try await viewer.get("/ma/applepay").html.contains("merchant.com.example.viewer")))

            let stranger = ConsoleBrowser(client)
            _ = try await stranger.login(merchant: TestGateway.otherMerchantId, name: "oscar", password: MerchantConsoleTests.adminPassword)
            #expect(!(try await stranger.get("/ma/applepay").html.contains(Self.identifier)))
            #expect(try await stranger.get("/ma/applepay/\(Self.identifier)/ec.certSigningRequest").status == .notFound)

            let badName = try await admin.post("/ma/applepay/keys", [("csrf", csrf), ("merchantIdentifier", "../../etc")])
            #expect(badName.status == .badRequest)
        }
    }
}

/// The sandbox page: a minted token paid through the API's reading and processor.
@Suite("Merchant Administration: sandbox payment")
struct MerchantConsoleSandboxTests {
    let console = MerchantConsoleTests()

    @Test("an admin runs a test payment with a minted token; the simulator's decline amount declines; a viewer cannot")
    func sandboxPayment() async throws {
        let services = try await console.console()
        try await console.application(services).test(.router) { client in
            try await console.addOperators(services)
            let browser = ConsoleBrowser(client)
            _ = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: MerchantConsoleTests.adminPassword)
            let page = try await browser.get("/ma/sandbox")
            #expect(page.status == .ok)
            let csrf = page.hidden("csrf") ?? ""
            let paid = try await browser.post(
                "/ma/sandbox",
                [("csrf", csrf), ("operation", "PAY"), ("amount", "56.56"), ("currency", "USD")]
            )
            #expect(paid.status == .ok)
            #expect(paid.html.contains("PAY 56.56 USD: SUCCESS, APPROVED"))
            let orderId = try #require(paid.html.components(separatedBy: "Open order ").dropFirst().first?.prefix { $0 != "<" })
            let order = try await client.send("/api/rest/version/100/merchant/TESTMERCHANT/order/\(orderId)", method: .get)
            #expect(order.string("status") == "CAPTURED")
            #expect(order.string("walletProvider") == "APPLE_PAY")

            let declined = try await browser.post(
                "/ma/sandbox",
                [("csrf", csrf), ("operation", "AUTHORIZE"), ("amount", "57.57"), ("currency", "USD")]
            )
            #expect(declined.html.contains("FAILURE, DECLINED"))
            // The same page with a Google Pay token minted under the sandbox Google root.
            let google = try await browser.post(
                "/ma/sandbox",
                [("csrf", csrf), ("operation", "AUTHORIZE"), ("wallet", "GOOGLE_PAY"), ("amount", "56.56"), ("currency", "USD")]
            )
            #expect(google.html.contains("AUTHORIZE 56.56 USD: SUCCESS, APPROVED"), "\(google.html.suffix(600))")
            let googleOrderId = try #require(google.html.components(separatedBy: "Open order ").dropFirst().first?.prefix { $0 != "<" })
            let googleOrder = try await client.send("/api/rest/version/100/merchant/TESTMERCHANT/order/\(googleOrderId)", method: .get)
            #expect(googleOrder.string("walletProvider") == "GOOGLE_PAY")
            #expect(try await browser.get("/ma/orders/\(googleOrderId)").html.contains("<dt>Wallet</dt><dd>GOOGLE_PAY</dd>"))
            let invalid = try await browser.post(
                "/ma/sandbox",
                [("csrf", csrf), ("operation", "PAY"), ("amount", "12.345"), ("currency", "USD")]
            )
            #expect(invalid.status == .badRequest)
            // A refused payment is in the audit log with what was asked.
            #expect(try await browser.get("/ma/audit").html.contains("<td>SANDBOX_PAYMENT</td><td>Apple Pay PAY 12.345 USD refused: "))

            let viewer = ConsoleBrowser(client)
            _ = try await viewer.login(merchant: TestGateway.merchantId, name: "victor", password: MerchantConsoleTests.viewerPassword)
            let viewerPage = try await viewer.get("/ma/sandbox")
            let refused = try await viewer.post(
                "/ma/sandbox",
                [("csrf", viewerPage.hidden("csrf") ?? ""), ("operation", "PAY"), ("amount", "56.56"), ("currency", "USD")]
            )
            #expect(refused.status == .forbidden)
            #expect(try await browser.get("/ma/audit").html.contains("<td>victor</td><td>FORBIDDEN</td><td>SANDBOX_PAYMENT</td>"))
        }
    }
}
