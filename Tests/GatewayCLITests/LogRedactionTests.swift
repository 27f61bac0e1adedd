import ApplePaySandbox
import ApplePayToken
import BlockingWork
import Foundation
import Testing

/// The real binary's log, after real traffic (Apple Pay tokens minted by the sandbox authority,
/// merchant-decrypted Apple Pay data, plain cards, and errors of every kind), holds one JSON
/// object per line and none of the secrets that went through it: full card numbers,
/// cryptograms, raw tokens, Authorization headers, passwords.
@Suite("Log redaction", .blocksThreads)
struct LogRedactionTests {
    static let password = "00112233445566778899aabbccddeeff"
    static let wrongPassword = "0badc0de0badc0de0badc0de0badc0de"
    static func authorization(_ password: String) -> String {
        "Basic " + Data("merchant.TESTMERCHANT:\(password)".utf8).base64EncodedString()
    }

    /// Every secret sent; the log must contain none of them.
    final class Secrets: @unchecked Sendable {
        var values: [String] = []
        func add(_ value: String) { values.append(value) }
    }

    static func mint(
        _ authority: SandboxAuthority,
        pan: String,
        cryptogram: String,
        amount: Int64,
        version: MintRequest.Version = .ecV1
    ) throws -> String {
        var request = MintRequest()
        request.version = version
        request.transactionAmount = amount
        request.applicationPrimaryAccountNumber = pan
        request.details = .threeDSecure(onlinePaymentCryptogram: cryptogram, eciIndicator: "05")
        let kind = version == .ecV1 ? "ec" : "rsa"
        let certificate = try KeyMaterial.certificate(
            from: Data(contentsOf: ServeCommandTests.packageRoot.appendingPathComponent("Config/sandbox/merchant-\(kind)-cert.pem"))
        )
        return try TokenMinter(authority: authority).mint(request, for: MintRecipient(certificate: certificate))
    }

    static func tokenBody(_ token: String, amount: String) -> [String: Any] {
        [
            "apiOperation": "AUTHORIZE", "order": ["amount": amount, "currency": "USD", "walletProvider": "APPLE_PAY"],
            "sourceOfFunds": ["type": "CARD", "provided": ["card": ["devicePayment": ["paymentToken": token]]]],
        ]
    }

    static func cardBody(_ pan: String, amount: String, extra: [String: Any] = [:]) -> [String: Any] {
        var card: [String: Any] = ["number": pan, "expiry": ["month": "1", "year": "39"], "securityCode": "100"]
        card.merge(extra) { $1 }
        return [
            "apiOperation": "PAY", "order": ["amount": amount, "currency": "USD"],
            "sourceOfFunds": ["type": "CARD", "provided": ["card": card]],
        ]
    }

    @Test("real traffic leaves no card number, cryptogram, token, header or password in the JSON log")
    func redaction() async throws {
        let authority = try SandboxAuthority.generate()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("redaction-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let rootPath = directory.appendingPathComponent("root.pem").path
        try authority.root.serializeAsPEM().pemString.write(toFile: rootPath, atomically: true, encoding: .utf8)
        let server = try await RunningGateway(
            store: directory.appendingPathComponent("gateway.sqlite"),
            environment: ["GATEWAY_APPLE_PAY_TRUST_ROOTS": rootPath, "GATEWAY_LOG_LEVEL": "debug", "GATEWAY_LOG_FORMAT": "json"]
        )
        let secrets = Secrets()
        var statuses: [Int] = []
        // Raw HTTP/1.1, so the bytes on the wire are exactly these (no client adds or retries anything).
        func send(_ method: String, _ path: String, _ body: [String: Any]? = nil, password: String = Self.password) async throws {
            let payload = try body.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) } ?? ""
            let connection = try RawConnection(port: server.port)
            connection.send(
                "\(method) /api/rest/version/100\(path) HTTP/1.1\r\nHost: localhost\r\nAuthorization: \(Self.authorization(password))\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(payload.utf8.count)\r\nConnection: close\r\n\r\n\(payload)"
            )
            let response = connection.receive(timeout: .seconds(10)).text
            statuses.append(Int(response.dropFirst("HTTP/1.1 ".count).prefix(3)) ?? 0)
        }
        func transaction(_ order: String, _ id: String = "1") -> String { "/merchant/TESTMERCHANT/order/\(order)/transaction/\(id)" }

        // Apple Pay tokens: EC and RSA accepted, a replay, an amount mismatch, a broken signature.
        let tokens: [(pan: String, cryptogram: String, amount: Int64, version: MintRequest.Version)] = [
            ("5204245250001488", "QUJDREVGR0hJSktMTU5PUFFSU1Q=", 5656, .ecV1),
            ("4895370012003478", "Ym9vbXNoYWthbGFrYWJvb20xMjM=", 1234, .rsaV1),
            ("5204240000009999", "Y3J5cHRvZ3JhbS1taXNtYXRjaA==", 999, .ecV1),
            ("4111111111111111", "c2lnbmF0dXJlLWJyb2tlbi0xMjM=", 500, .ecV1),
        ]
        var minted: [String] = []
        for token in tokens {
            let text = try Self.mint(authority, pan: token.pan, cryptogram: token.cryptogram, amount: token.amount, version: token.version)
            minted.append(text)
            secrets.add(token.pan)
            secrets.add(token.cryptogram)
            let fields = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            for key in ["data", "signature"] { secrets.add(String((fields[key] as? String ?? "").prefix(40))) }
        }
        try await send("PUT", transaction("token-ec"), Self.tokenBody(minted[0], amount: "56.56"))
        try await send("PUT", transaction("token-rsa"), Self.tokenBody(minted[1], amount: "12.34"))
        try await send("PUT", transaction("token-replay"), Self.tokenBody(minted[0], amount: "56.56"))
        try await send("PUT", transaction("token-amount"), Self.tokenBody(minted[2], amount: "10.00"))
        var broken = try #require(try JSONSerialization.jsonObject(with: Data(minted[3].utf8)) as? [String: Any])
        broken["signature"] = "MIAGCSqGSIb3DQEHAqCAMIACAQExDzANBglghkgBZQMEAgEFADCABgkqhkiG9w0BBwEAAKCAMII="
        let brokenText = String(decoding: try JSONSerialization.data(withJSONObject: broken), as: UTF8.self)
        try await send("PUT", transaction("token-broken"), Self.tokenBody(brokenText, amount: "5.00"))

        // Apple Pay data the merchant decrypted itself: a full DPAN and its cryptogram in the request.
        let devicePAN = "5413330089020011"
        let deviceCryptogram = "QWxyZWFkeURlY3J5cHRlZENyeXB0bw=="
        secrets.add(devicePAN)
        secrets.add(deviceCryptogram)
        let decrypted: [String: Any] = [
            "apiOperation": "PAY", "order": ["amount": "20.00", "currency": "USD", "walletProvider": "APPLE_PAY"],
            "sourceOfFunds": [
                "type": "CARD",
                "provided": [
                    "card": [
                        "number": devicePAN, "expiry": ["month": "12", "year": "30"],
                        "devicePayment": [
                            "cryptogramFormat": "3DSECURE", "onlinePaymentCryptogram": deviceCryptogram, "eciIndicator": "05",
                        ],
                    ]
                ],
            ],
        ]
        try await send("PUT", transaction("device-data"), decrypted)

        // Plain cards: approved, declined, a follow-on capture, a retrieval, and errors.
        let cardPAN = "5123450000000008"
        let otherPAN = "4005550000000019"
        secrets.add(cardPAN)
        secrets.add(otherPAN)
        try await send("PUT", transaction("card-ok"), Self.cardBody(cardPAN, amount: "30.00"))
        try await send("PUT", transaction("card-declined"), Self.cardBody(cardPAN, amount: "57.57"))
        try await send(
            "PUT",
            transaction("card-ok", "2"),
            ["apiOperation": "REFUND", "transaction": ["amount": "5.00", "currency": "USD"]]
        )
        try await send("GET", "/merchant/TESTMERCHANT/order/card-ok")
        try await send("PUT", transaction("card-bad-field"), Self.cardBody(otherPAN, amount: "1.00", extra: ["colour": otherPAN]))
        try await send(
            "PUT",
            transaction("card-bad-expiry"),
            Self.cardBody(otherPAN, amount: "1.00", extra: ["expiry": ["month": "13", "year": "39"]])
        )
        try await send("PUT", transaction("wrong-password"), Self.cardBody(otherPAN, amount: "1.00"), password: Self.wrongPassword)
        try await send("GET", "/merchant/TESTMERCHANT/nowhere/\(otherPAN)")
        secrets.add(Self.password)
        secrets.add(Self.wrongPassword)
        secrets.add(Self.authorization(Self.password))
        secrets.add(Self.authorization(Self.wrongPassword))
        secrets.add(String(Self.authorization(Self.password).dropFirst("Basic ".count)))

        #expect(statuses == [201, 201, 400, 400, 400, 201, 201, 201, 201, 200, 400, 400, 401, 404])
        #expect(await server.stop())
        let log = server.output

        // One JSON object per line, each with a timestamp, a level and a message.
        let lines = log.split(separator: "\n")
        #expect(lines.count > 15)
        for line in lines {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["timestamp"] is String && object?["level"] is String && object?["message"] is String, "\(line)")
        }
        // The lines are there to be searched: transactions with their ids, codes and masked cards.
        #expect(log.contains(#""gatewayCode":"APPROVED""#))
        #expect(log.contains(#""orderId":"token-ec""#))
        #expect(log.contains(#""card":"520424xxxxxx1488""#))
        #expect(log.contains(#""requestId":"#))
        for secret in secrets.values where !secret.isEmpty {
            #expect(!log.contains(secret), "the log contains a secret: \(secret.prefix(8))...")
        }
    }

    @Test(
        "card numbers written with dashes in an order id, a transaction id and X-Request-ID are masked",
        arguments: ["json", "text"]
    )
    func separatedCardNumbersInIds(format: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("redaction-ids-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let server = try await RunningGateway(
            store: directory.appendingPathComponent("gateway.sqlite"),
            environment: ["GATEWAY_LOG_LEVEL": "debug", "GATEWAY_LOG_FORMAT": format]
        )
        let (order, transaction, requestId) = ("5123-4500-0000-0008", "4111-1111-1111-1111", "4012-8888-8888-1881")
        let payload = String(decoding: try JSONSerialization.data(withJSONObject: Self.cardBody("5123450000000008", amount: "1.00")), as: UTF8.self)
        let connection = try RawConnection(port: server.port)
        connection.send(
            "PUT /api/rest/version/100/merchant/TESTMERCHANT/order/\(order)/transaction/\(transaction) HTTP/1.1\r\n"
                + "Host: localhost\r\nAuthorization: \(Self.authorization(Self.password))\r\nX-Request-ID: \(requestId)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(payload.utf8.count)\r\nConnection: close\r\n\r\n\(payload)"
        )
        #expect(connection.receive(timeout: .seconds(10)).text.hasPrefix("HTTP/1.1 201"))
        #expect(await server.stop())
        let log = server.output
        #expect(log.contains("5123-45xx-xxxx-0008"), "the order id is logged, masked")
        for number in [order, transaction, requestId] {
            #expect(!log.contains(number), "\(format) log contains \(number)")
            #expect(!log.contains(number.replacingOccurrences(of: "-", with: "")))
        }
    }
}
