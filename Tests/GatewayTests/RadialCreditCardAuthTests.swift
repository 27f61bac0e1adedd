import Foundation
import GatewayCore
import HummingbirdTesting
import Testing

@testable import Gateway
@testable import GatewayObservability
@testable import MPGSAPI
@testable import RadialAPI

@Suite("Radial-style CreditCardAuth, through a real socket")
struct RadialCreditCardAuthTests {
    /// The SDK's reply fixture (`UnencryptedCardData/CreditCardAuthReply.xml`) has these elements
    /// in this order (its Amex-only Phone/Name codes aside); ResponseCode and TenderType come
    /// with SchemaVersion 1.1 and 1.2.
    static let sdkReplyElements = [
        "PaymentContext", "AuthorizationResponseCode", "BankAuthorizationCode", "CVV2ResponseCode", "AVSResponseCode",
        "AmountAuthorized",
    ]

    @Test("the SDK's card-data request is authorized and answered in the SDK reply's shape")
    func sdkCardRequest() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let reply = try await client.radial(Radial.authPath(), Radial.sdkCardRequest(orderId: "testOrderId"))
            #expect(reply.status == .ok, "\(reply.body)")
            #expect(reply.contentType?.hasPrefix("application/xml") == true)
            #expect(reply.root?.name == "CreditCardAuthReply")
            #expect(reply.root?.namespace == "http://api.gsicommerce.com/schema/checkout/1.0")
            #expect(reply.childNames == Self.sdkReplyElements)
            #expect(reply.text("PaymentContext/OrderId") == "testOrderId")
            #expect(reply.element("PaymentContext/PaymentAccountUniqueId")?.attribute("isToken") == "true")
            #expect(reply.text("PaymentContext/PaymentAccountUniqueId") == "411111xxxxxx1111")
            #expect(reply.text("AuthorizationResponseCode") == "AP01")
            #expect(reply.text("BankAuthorizationCode")?.count == 6)
            #expect(reply.text("CVV2ResponseCode") == "M")
            #expect(reply.text("AmountAuthorized") == "43.45")
            #expect(reply.element("AmountAuthorized")?.attribute("currencyCode") == "USD")
            #expect(!reply.body.contains("4111111111111111"))
        }
    }

    @Test("SchemaVersion 1.1 adds ResponseCode, 1.2 also TenderType")
    func schemaVersions() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let v11 = try await client.radial(
                Radial.authPath(),
                Radial.sdkCardRequest(orderId: "sv-11", schemaVersion: "1.1")
            )
            #expect(v11.childNames.contains("ResponseCode"))
            #expect(!v11.childNames.contains("TenderType"))
            let v12 = try await client.radial(
                Radial.authPath(),
                Radial.sdkCardRequest(orderId: "sv-12", schemaVersion: "1.2")
            )
            #expect(v12.childNames == ["PaymentContext", "ResponseCode"] + Self.sdkReplyElements.dropFirst() + ["TenderType"])
            #expect(v12.text("ResponseCode") == "APPROVED")
            #expect(v12.text("TenderType") == "VC")
        }
    }

    @Test(
        "the amount simulator, in Radial's codes",
        arguments: [
            ("56.56", "APPROVED", "AP01"), ("57.57", "DECL", "ND01"), ("58.58", "TIMEOUT", "TO01"),
            ("59.59", "DECL", "ND03"), ("62.62", "DECL", "ND04"), ("63.63", "TIMEOUT", "TO02"),
        ]
    )
    func amountSimulator(amount: String, responseCode: String, authorizationCode: String) async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let reply = try await client.radial(
                Radial.authPath(),
                Radial.sdkCardRequest(orderId: "sim-\(amount)", amount: amount, schemaVersion: "1.2")
            )
            #expect(reply.status == .ok)
            #expect(reply.text("ResponseCode") == responseCode)
            #expect(reply.text("AuthorizationResponseCode") == authorizationCode)
            #expect(reply.text("AmountAuthorized") == (responseCode == "APPROVED" ? amount : "0.00"))
            #expect((reply.text("BankAuthorizationCode")?.isEmpty ?? false) == (responseCode != "APPROVED"))
        }
    }

    @Test("security code 102 does not match: CSC, N")
    func securityCodeMismatch() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let reply = try await client.radial(
                Radial.authPath(),
                Radial.sdkCardRequest(orderId: "csc-1", securityCode: "102", schemaVersion: "1.2")
            )
            #expect(reply.text("ResponseCode") == "CSC")
            #expect(reply.text("CVV2ResponseCode") == "N")
        }
    }

    @Test("seed 002's wallet request with a sandbox token is authorized; the MPGS API shows the same order")
    func seedWalletRequest() async throws {
        let gateway = try await TestGateway()
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        let parts = try Radial.WalletParts(token: token)
        try await gateway.application.test(.live) { client in
            // As in the seed: no Amount; the token's 56.56 USD is authorized.
            let reply = try await client.radial(
                Radial.authPath(),
                Radial.seedWalletRequest(parts, orderId: "seed-1", schemaVersion: "1.2")
            )
            #expect(reply.status == .ok, "\(reply.body)")
            #expect(reply.text("ResponseCode") == "APPROVED")
            #expect(reply.text("AmountAuthorized") == "56.56")
            #expect(reply.text("TenderType") == "MC")
            #expect(reply.text("CVV2ResponseCode") == "P")
            let order = try await client.send("/api/rest/version/100/merchant/\(TestGateway.merchantId)/order/seed-1", method: .get)
            #expect(order.status == .ok)
            #expect(order.string("status") == "AUTHORIZED")
            #expect(order.value("totalAuthorizedAmount") as? Double == 56.56)
            let transactions = order.value("transaction") as? [[String: Any]]
            #expect(transactions?.count == 1)
            #expect((transactions?.first?["transaction"] as? [String: Any])?["id"] as? String == "1234567")
            // Decrypted once, to read the amount, and handed to the processor decrypted: one
            // signature verification in all (a second would show as a chain cache hit).
            let scrape = PrometheusSamples(try await client.execute(uri: "/metrics", method: .get) { String(buffer: $0.body) })
            let names = GatewayMetrics.Names.self
            #expect(scrape.value(names.chainCacheMisses) + scrape.value(names.chainCacheHits) == 1)
        }
        let stored = try await gateway.services.store.order(merchantId: TestGateway.merchantId, orderId: "seed-1")
        #expect(stored != nil)
    }

    @Test("a wallet request with Amount must match the token: a fault names Amount and nothing is stored")
    func amountMismatch() async throws {
        let gateway = try await TestGateway()
        let parts = try Radial.WalletParts(token: TestGateway.mintToken(amountMinorUnits: 5656))
        try await gateway.application.test(.live) { client in
            let reply = try await client.radial(
                Radial.authPath(),
                Radial.seedWalletRequest(parts, orderId: "mismatch-1", amount: "10.00")
            )
            #expect(reply.status == .badRequest)
            #expect(reply.root?.name == "Fault")
            #expect(reply.text("Code") == "TOKEN_REJECTED")
            #expect(reply.text("Element") == "CreditCardAuthRequest/Amount")
            #expect(reply.text("Description")?.contains("AMOUNT_MISMATCH") == true)
            let stamp = try #require(reply.text("CreateTimestamp"))
            #expect(stamp.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00/) != nil, "\(stamp)")
            // The same token with the right amount is not a replay: the refused request used nothing.
            let approved = try await client.radial(
                Radial.authPath(),
                Radial.seedWalletRequest(parts, orderId: "mismatch-2", amount: "56.56")
            )
            #expect(approved.status == .ok, "\(approved.body)")
        }
        #expect(try await gateway.services.store.order(merchantId: TestGateway.merchantId, orderId: "mismatch-1") == nil)
    }

    @Test("an Apple transaction id used through one API is a replay through the other")
    func replayAcrossAPIs() async throws {
        let gateway = try await TestGateway()
        let first = try TestGateway.mintToken(amountMinorUnits: 5656)
        let second = try TestGateway.mintToken(amountMinorUnits: 5656)
        try await gateway.application.test(.live) { client in
            // MPGS first, then Radial.
            let mpgs = try await client.put(
                TestGateway.path(order: "cross-1", transaction: "1"),
                TestGateway.tokenBody(first, amount: "56.56")
            )
            #expect(mpgs.status == .created)
            let replay = try await client.radial(
                Radial.authPath(),
                Radial.seedWalletRequest(try Radial.WalletParts(token: first), orderId: "cross-2")
            )
            #expect(replay.status == .badRequest)
            #expect(replay.text("Element") == "CreditCardAuthRequest/WalletPaymentInformation/ApplePayTransactionId")
            #expect(replay.text("Description")?.contains("REPLAYED") == true)
            // Radial first, then MPGS.
            let radial = try await client.radial(
                Radial.authPath(),
                Radial.seedWalletRequest(try Radial.WalletParts(token: second), orderId: "cross-3", amount: "56.56")
            )
            #expect(radial.status == .ok)
            let mpgsReplay = try await client.put(
                TestGateway.path(order: "cross-4", transaction: "1"),
                TestGateway.tokenBody(second, amount: "56.56")
            )
            #expect(mpgsReplay.status == .badRequest)
            #expect(mpgsReplay.body.contains("REPLAYED"))
        }
    }

    @Test("an identical retry gets the same reply; a second authorization on the order is refused")
    func retryAndConflict() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let body = Radial.sdkCardRequest(orderId: "retry-1", requestId: "r-1")
            let first = try await client.radial(Radial.authPath(), body)
            let retry = try await client.radial(Radial.authPath(), body)
            #expect(first.status == .ok)
            #expect(retry.body == first.body)
            let again = try await client.radial(Radial.authPath(), Radial.sdkCardRequest(orderId: "retry-1", requestId: "r-2"))
            #expect(again.status == .conflict)
            #expect(again.text("Element") == "CreditCardAuthRequest/PaymentContext/OrderId")
            let reused = try await client.radial(
                Radial.authPath(),
                Radial.sdkCardRequest(orderId: "retry-1", requestId: "r-1", amount: "12.00")
            )
            #expect(reused.status == .conflict)
            #expect(reused.text("Element") == "CreditCardAuthRequest/@requestId")
        }
    }

    @Test(
        "token failures give a fault naming the token part",
        arguments: [
            ("Signature", "SIGNATURE_INVALID"), ("PublicKeyHash", "NO_MATCHING_KEY"), ("Data", "MESSAGE_DIGEST_MISMATCH"),
        ]
    )
    func tokenFailures(part: String, code: String) async throws {
        let gateway = try await TestGateway()
        var parts = try Radial.WalletParts(token: TestGateway.mintToken(amountMinorUnits: 5656))
        switch part {
        case "Signature":
            // A valid base64 CMS whose signature bytes are altered near the end.
            var bytes = Array(Data(base64Encoded: parts.signature)!)
            bytes[bytes.count - 10] ^= 0x01
            parts.signature = Data(bytes).base64EncodedString()
        case "PublicKeyHash":
            parts.publicKeyHash = Data(repeating: 7, count: 32).base64EncodedString()
        default:
            var bytes = Array(Data(base64Encoded: parts.data)!)
            bytes[0] ^= 0x01
            parts.data = Data(bytes).base64EncodedString()
        }
        let tampered = parts
        try await gateway.application.test(.live) { client in
            let reply = try await client.radial(Radial.authPath(), Radial.seedWalletRequest(tampered, orderId: "token-\(part)"))
            #expect(reply.status == .badRequest, "\(reply.body)")
            #expect(reply.text("Code") == "TOKEN_REJECTED")
            let element = try #require(reply.text("Element"))
            #expect(element.hasPrefix("CreditCardAuthRequest/WalletPaymentInformation"))
            if part != "Data" { #expect(element.hasSuffix(part)) }
            #expect(reply.text("Description")?.contains(code) == true || part == "Signature", "\(reply.body)")
            // The core refused it and reported it once; the fault does not count it again.
            let scrape = try await client.execute(uri: "/metrics", method: .get) { String(buffer: $0.body) }
            #expect(PrometheusSamples(scrape).value(GatewayMetrics.Names.tokenFailures) == 1)
        }
        #expect(try await gateway.services.store.order(merchantId: TestGateway.merchantId, orderId: "token-\(part)") == nil)
    }

    @Test("a token signed outside the trusted chain (a production gateway, a sandbox token) names Signature")
    func untrustedChain() async throws {
        let gateway = try await TestGateway(mode: .production)
        let parts = try Radial.WalletParts(token: TestGateway.mintToken(amountMinorUnits: 5656))
        try await gateway.application.test(.live) { client in
            let reply = try await client.radial(Radial.authPath(), Radial.seedWalletRequest(parts, orderId: "chain-1"))
            #expect(reply.status == .badRequest)
            #expect(reply.text("Code") == "TOKEN_REJECTED")
            #expect(reply.text("Element") == "CreditCardAuthRequest/WalletPaymentInformation/Signature")
            #expect(reply.text("Description")?.contains("UNTRUSTED_CHAIN") == true, "\(reply.body)")
        }
        #expect(try await gateway.services.store.order(merchantId: TestGateway.merchantId, orderId: "chain-1") == nil)
    }

    @Test("a wrong or missing apikey, or another store's key, is 401; nothing is stored")
    func authentication() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let body = Radial.sdkCardRequest(orderId: "auth-1")
            for (path, key) in [
                (Radial.authPath(), Optional("ffffffffffffffffffffffffffffffff")), (Radial.authPath(), nil),
                (Radial.authPath(store: TestGateway.otherMerchantId), TestGateway.password),
                (Radial.authPath(store: "NOSUCHSTORE"), TestGateway.password),
            ] {
                let reply = try await client.radial(path, body, apiKey: key)
                #expect(reply.status == .unauthorized)
                #expect(reply.text("Code") == "UNAUTHORIZED")
            }
            let other = try await client.radial(
                Radial.authPath(store: TestGateway.otherMerchantId),
                body,
                apiKey: TestGateway.otherPassword
            )
            #expect(other.status == .ok)
        }
        #expect(try await gateway.services.store.order(merchantId: TestGateway.merchantId, orderId: "auth-1") == nil)
    }

    @Test(
        "schema faults name the element",
        arguments: [
            ("<Unexpected>1</Unexpected>\n    <ExpirationDate>", "CreditCardAuthRequest/Unexpected"),
            ("", "CreditCardAuthRequest/ExpirationDate"),
        ]
    )
    func schemaFaults(replace: String, element: String) async throws {
        let gateway = try await TestGateway()
        var body = Radial.sdkCardRequest(orderId: "schema-1")
        if replace.isEmpty {
            // PaymentContext removed: the request then starts with ExpirationDate.
            let start = body.range(of: "<PaymentContext>")!.lowerBound
            let end = body.range(of: "</PaymentContext>")!.upperBound
            body.removeSubrange(start..<end)
        } else {
            body = body.replacingOccurrences(of: "<ExpirationDate>", with: replace)
        }
        let request = body
        try await gateway.application.test(.live) { client in
            let reply = try await client.radial(Radial.authPath(), request)
            #expect(reply.status == .badRequest, "\(reply.body)")
            #expect(reply.text("Code") == "INVALID_REQUEST")
            #expect(reply.text("Element") == element, "\(reply.body)")
        }
    }

    @Test("bad values are faults naming the element")
    func valueFaults() async throws {
        let gateway = try await TestGateway()
        let cases: [(String, String, String)] = [
            ("<City>King of Prussia</City>", "<City></City>", "CreditCardAuthRequest/BillingAddress/City"),
            ("<ExpirationDate>2039-01</ExpirationDate>", "<ExpirationDate>2039-13</ExpirationDate>", "CreditCardAuthRequest/ExpirationDate"),
            (
                "<CustomerIPAddress>127.0.0.1</CustomerIPAddress>", "<CustomerIPAddress>300.0.0.1</CustomerIPAddress>",
                "CreditCardAuthRequest/CustomerIPAddress"
            ),
            ("currencyCode=\"USD\"", "currencyCode=\"XYZ\"", "CreditCardAuthRequest/Amount/@currencyCode"),
            ("isToken=\"false\"", "isToken=\"true\"", "CreditCardAuthRequest/PaymentContext/PaymentAccountUniqueId/@isToken"),
            ("requestId=\"739a45ba35\"", "", "CreditCardAuthRequest/@requestId"),
            ("<Amount currencyCode=\"USD\">43.45</Amount>", "<Amount currencyCode=\"USD\">43.456</Amount>", "CreditCardAuthRequest/Amount"),
            ("<OrderId>values-1</OrderId>", "<OrderId>an order id far too long for it</OrderId>", "CreditCardAuthRequest/PaymentContext/OrderId"),
            (
                "<isRequestToCorrectCVVOrAVSError>false</isRequestToCorrectCVVOrAVSError>", "",
                "CreditCardAuthRequest/isRequestToCorrectCVVOrAVSError"
            ),
        ]
        try await gateway.application.test(.live) { client in
            for (original, replacement, element) in cases {
                let body = Radial.sdkCardRequest(orderId: "values-1").replacingOccurrences(of: original, with: replacement)
                let reply = try await client.radial(Radial.authPath(), body)
                #expect(reply.status == .badRequest, "\(element): \(reply.body)")
                #expect(reply.text("Element") == element, "\(reply.body)")
            }
            let xmlns = Radial.sdkCardRequest(orderId: "values-1")
                .replacingOccurrences(of: "schema/checkout/1.0", with: "schema/checkout/2.0")
            let wrongNamespace = try await client.radial(Radial.authPath(), xmlns)
            #expect(wrongNamespace.status == .badRequest)
            #expect(wrongNamespace.text("Element") == "CreditCardAuthRequest")
        }
        #expect(try await gateway.services.store.order(merchantId: TestGateway.merchantId, orderId: "values-1") == nil)
    }

    @Test("hostile and non-XML bodies get a fault and leave the server answering")
    func hostileBodies() async throws {
        let gateway = try await TestGateway()
        let bomb = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
            <CreditCardAuthRequest xmlns="http://api.gsicommerce.com/schema/checkout/1.0" requestId="1">&lol2;</CreditCardAuthRequest>
            """
        let xxe = """
            <?xml version="1.0"?>
            <!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <CreditCardAuthRequest xmlns="http://api.gsicommerce.com/schema/checkout/1.0" requestId="1">&xxe;</CreditCardAuthRequest>
            """
        let deep = String(repeating: "<a>", count: 5_000) + String(repeating: "</a>", count: 5_000)
        try await gateway.application.test(.live) { client in
            for body in [bomb, xxe, deep, "not xml", "<CreditCardAuthRequest", ""] {
                let reply = try await client.radial(Radial.authPath(), body)
                #expect(reply.status == .badRequest, "\(reply.body)")
                #expect(reply.text("Code") == "INVALID_REQUEST")
                #expect(!reply.body.contains("root:"))
            }
            let json = try await client.radial(Radial.authPath(), "{}", contentType: "application/json")
            #expect(json.status == .unsupportedMediaType)
            let ok = try await client.radial(Radial.authPath(), Radial.sdkCardRequest(orderId: "after-hostile"))
            #expect(ok.status == .ok)
        }
    }

    @Test("a body over server.maxBodyBytes is a 413 Fault")
    func oversizedBody() async throws {
        let gateway = try await TestGateway()
        // In-process: over a socket the server may close before the client has sent it all.
        try await gateway.application.test(.router) { client in
            let huge = try await client.radial(Radial.authPath(), String(repeating: "<a>x</a>", count: 20_000))
            #expect(huge.status == .contentTooLarge)
            #expect(huge.text("Code") == "REQUEST_TOO_LARGE")
        }
    }
}

@Suite("Radial-style requests, mutated")
struct RadialMutationTests {
    @Test("mutated requests are answered with a reply or a 4xx Fault, never a 5xx, and the server keeps answering")
    func mutations() async throws {
        let gateway = try await TestGateway(radialDecrypt: true)
        let parts = try Radial.WalletParts(token: TestGateway.mintToken(amountMinorUnits: 5656))
        let seeds = [
            Array(Radial.sdkCardRequest(orderId: "mut").utf8), Array(Radial.seedWalletRequest(parts, orderId: "mut-w").utf8),
            Array(Radial.decryptRequest(parts).utf8),
        ]
        var generator = SystemRandomNumberGenerator()
        let inputs: [(String, String)] = (0..<150).map { index in
            var bytes = seeds[index % seeds.count]
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[position] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.remove(at: position)
                default: bytes.insert(Array("<>&;/\"'=!?[]".utf8).randomElement(using: &generator)!, at: position)
                }
            }
            let path = index % seeds.count == 2 ? Radial.decryptPath() : Radial.authPath()
            return (path, String(decoding: bytes, as: UTF8.self))
        }
        try await gateway.application.test(.router) { client in
            for (path, body) in inputs {
                let reply = try await client.radial(path, body)
                #expect(reply.status.code < 500, "\(reply.status): \(body)")
                #expect(reply.root != nil, "not XML: \(reply.body)")
            }
            let ok = try await client.radial(Radial.authPath(), Radial.sdkCardRequest(orderId: "after-mutations"))
            #expect(ok.status == .ok)
        }
    }
}

@Suite("Radial-style requests this gateway cannot serve")
struct RadialUnsupportedTests {
    @Test("the SDK's client-encrypted request, an RSA_v1 token and the card-present sequence are faults naming the element")
    func unsupported() async throws {
        let gateway = try await TestGateway()
        // Shaped like the SDK's fixture EncryptedCardData/CreditCardAuthRequest.xml.
        let encrypted = Radial.sdkCardRequest(orderId: "enc-1")
            .replacingOccurrences(
                of: #"<PaymentAccountUniqueId isToken="false">4111111111111111</PaymentAccountUniqueId>"#,
                with: "<EncryptedPaymentAccountUniqueId>4111111111111111</EncryptedPaymentAccountUniqueId>"
            )
            .replacingOccurrences(of: "<CardSecurityCode>123</CardSecurityCode>", with: "<EncryptedCardSecurityCode>123</EncryptedCardSecurityCode>")
        var rsa = try Radial.WalletParts(token: TestGateway.mintToken(amountMinorUnits: 5656))
        rsa.version = "RSA_v1"
        let wallet = Radial.seedWalletRequest(rsa, orderId: "rsa-1")
        let cardPresent = """
            <CreditCardAuthRequest xmlns="http://api.gsicommerce.com/schema/checkout/1.0" requestId="cp-1">
              <OrderId>cp-1</OrderId>
              <CardPresentEncryptedBlob>AAAA</CardPresentEncryptedBlob>
            </CreditCardAuthRequest>
            """
        try await gateway.application.test(.live) { client in
            for (body, element) in [
                (encrypted, "CreditCardAuthRequest/PaymentContext/EncryptedPaymentAccountUniqueId"),
                (wallet, "CreditCardAuthRequest/WalletPaymentInformation/Version"),
                (cardPresent, "CreditCardAuthRequest/CardPresentEncryptedBlob"),
            ] {
                let reply = try await client.radial(Radial.authPath(), body)
                #expect(reply.status == .badRequest)
                #expect(reply.text("Element") == element, "\(reply.body)")
            }
        }
        for order in ["enc-1", "rsa-1", "cp-1"] {
            #expect(try await gateway.services.store.order(merchantId: TestGateway.merchantId, orderId: order) == nil)
        }
    }
}
