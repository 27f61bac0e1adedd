import Foundation
import PostgresTestServer
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Google Pay tokens through a live `gateway serve` (the sandbox defaults' TESTMERCHANT, whose
/// Google Pay key is Config/sandbox/google-pay-key.pem), minted by its sandbox endpoint as Google
/// would make them: each operation, the replay rule across orders and replicas, the refusals.
@Suite("Google Pay on a live gateway", .blocksThreads)
struct GooglePayServeTests {
    @Test("CRYPTOGRAM_3DS authorizes as a device payment, PAN_ONLY pays and verifies as a card; a retry is answered from the store")
    func operations() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("gpay-\(UUID().uuidString).sqlite")
        let gateway = try await RunningGateway(store: store, environment: Self.sandboxRoot(beside: store))
        defer { gateway.process.terminate() }

        let device = try await Self.mint(port: gateway.port, ["authMethod": "CRYPTOGRAM_3DS", "eciIndicator": "05", "pan": "4895370012003478"])
        let authorize = Self.body("AUTHORIZE", amount: "56.56", token: device)
        let authorized = try await ReplicaCluster.send(port: gateway.port, "/order/gp-device/transaction/1", body: authorize)
        let json = ReplicaCluster.json(authorized.body)
        #expect(authorized.status == 201 && json["result"] as? String == "SUCCESS", "\(json)")
        #expect(Self.text(json, "order.walletProvider") == "GOOGLE_PAY")
        #expect(Self.text(json, "response.gatewayCode") == "APPROVED")
        #expect(Self.text(json, "sourceOfFunds.provided.card.deviceSpecificNumber") == "489537xxxxxx3478")
        #expect(Self.text(json, "sourceOfFunds.provided.card.devicePayment.cryptogramFormat") == "3DSECURE")
        #expect(Self.text(json, "sourceOfFunds.provided.card.expiry.year") == "30", "MPGS carries two digits")
        // The same request again: the stored answer, byte for byte (the token is not used twice).
        let retried = try await ReplicaCluster.send(port: gateway.port, "/order/gp-device/transaction/1", body: authorize)
        #expect(retried.status == 201 && retried.body == authorized.body)
        let retrieved = try await ReplicaCluster.send(port: gateway.port, "/order/gp-device")
        #expect(Self.text(ReplicaCluster.json(retrieved.body), "walletProvider") == "GOOGLE_PAY")

        let card = try await Self.mint(port: gateway.port, ["authMethod": "PAN_ONLY", "pan": "5123450000000008"])
        let paid = try await ReplicaCluster.send(
            port: gateway.port,
            "/order/gp-card/transaction/1",
            body: Self.body("PAY", amount: "10.00", token: card)
        )
        let paidJSON = ReplicaCluster.json(paid.body)
        #expect(Self.text(paidJSON, "order.status") == "CAPTURED", "\(paidJSON)")
        #expect(Self.text(paidJSON, "sourceOfFunds.provided.card.number") == "512345xxxxxx0008")
        #expect(Self.text(paidJSON, "sourceOfFunds.provided.card.deviceSpecificNumber") == nil, "PAN_ONLY is the card, not a device token")

        let verifyToken = try await Self.mint(port: gateway.port, [:])
        let verified = try await ReplicaCluster.send(
            port: gateway.port,
            "/order/gp-verify/transaction/1",
            body: Self.body("VERIFY", amount: nil, token: verifyToken)
        )
        #expect(Self.text(ReplicaCluster.json(verified.body), "order.status") == "VERIFIED", "\(ReplicaCluster.json(verified.body))")

        // A declined amount, as for any card: the simulator decides by amount.
        let declineToken = try await Self.mint(port: gateway.port, [:])
        let declined = try await ReplicaCluster.send(
            port: gateway.port,
            "/order/gp-decline/transaction/1",
            body: Self.body("PAY", amount: "57.57", token: declineToken)
        )
        #expect(Self.text(ReplicaCluster.json(declined.body), "response.gatewayCode") == "DECLINED")
        #expect(!gateway.output.contains("4895370012003478") && !gateway.output.contains("5123450000000008"), "a full PAN reached the log")
    }

    @Test("a used, altered, expired, foreign or mislabelled token is refused naming its cause, and nothing is recorded")
    func refusals() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("gpay-refusals-\(UUID().uuidString).sqlite")
        let gateway = try await RunningGateway(store: store, environment: Self.sandboxRoot(beside: store))
        defer { gateway.process.terminate() }
        let port = gateway.port

        let token = try await Self.mint(port: port, [:])
        #expect(
            try await ReplicaCluster.send(port: port, "/order/gp-r1/transaction/1", body: Self.body("PAY", amount: "1.00", token: token)).status
                == 201
        )
        let expired = try await Self.mint(port: port, ["messageExpiration": "2020-01-01T00:00:00Z"])
        let foreign = try await Self.mint(port: port, ["gatewayMerchantId": "OTHERSHOP"])
        // One character of the encrypted message changed: the signature covers it.
        let altered = try Self.alter(try await Self.mint(port: port, [:]))
        let cases: [(body: Data, explanation: String)] = [
            (Self.body("PAY", amount: "1.00", token: token), "Google Pay token rejected: REPLAYED"),
            (Self.body("PAY", amount: "1.00", token: expired), "Google Pay token rejected: MESSAGE_EXPIRED"),
            (Self.body("PAY", amount: "1.00", token: foreign), "Google Pay token rejected: GATEWAY_MERCHANT_MISMATCH"),
            (Self.body("PAY", amount: "1.00", token: altered), "Google Pay token rejected: MESSAGE_SIGNATURE_INVALID"),
            (Self.body("PAY", amount: "1.00", token: "{\"protocolVersion\":\"ECv2\"}"), "Google Pay token rejected: MALFORMED_TOKEN"),
            // Named as Apple Pay's, it is read as Apple's and is not one.
            (
                Self.body("PAY", amount: "1.00", token: try await Self.mint(port: port, [:]), wallet: "APPLE_PAY"),
                "Apple Pay token rejected: MALFORMED_TOKEN"
            ),
            (Self.body("PAY", amount: "1.00", token: try await Self.mint(port: port, [:]), wallet: nil), "must be APPLE_PAY or GOOGLE_PAY"),
        ]
        for (index, refusal) in cases.enumerated() {
            let answer = try await ReplicaCluster.send(port: port, "/order/gp-refused-\(index)/transaction/1", body: refusal.body)
            let error = ReplicaCluster.json(answer.body)["error"] as? [String: Any]
            #expect(answer.status == 400, "case \(index)")
            #expect((error?["explanation"] as? String)?.contains(refusal.explanation) == true, "case \(index): \(String(describing: error))")
            let order = try await ReplicaCluster.send(port: port, "/order/gp-refused-\(index)")
            #expect(order.status == 404, "case \(index): a refused token recorded an order")
        }
    }

    @Test("a session holds a Google Pay token put there by the sandbox, and a PAY with session.id pays with it")
    func session() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("gpay-session-\(UUID().uuidString).sqlite")
        let gateway = try await RunningGateway(store: store, environment: Self.sandboxRoot(beside: store))
        defer { gateway.process.terminate() }
        let created = try await ThreeDSecureTests.session(port: gateway.port, "POST", "/session", body: nil)
        let sessionId = try #require(Self.text(created.body, "session.id"))
        let minted = try await Self.mintResponse(port: gateway.port, ["sessionId": sessionId, "authMethod": "CRYPTOGRAM_3DS"])
        #expect(Self.text(minted, "session.updateStatus") == "SUCCESS", "\(minted)")
        let pay = Data(#"{"apiOperation":"PAY","order":{"amount":"56.56","currency":"EUR"},"session":{"id":"\#(sessionId)"}}"#.utf8)
        let paid = try await ReplicaCluster.send(port: gateway.port, "/order/gp-session/transaction/1", body: pay)
        let json = ReplicaCluster.json(paid.body)
        #expect(paid.status == 201 && Self.text(json, "result") == "SUCCESS", "\(json)")
        #expect(Self.text(json, "order.walletProvider") == "GOOGLE_PAY")
    }

    @Test("a Google Pay payment's notification is its Retrieve Transaction, wallet and device card included")
    func notification() async throws {
        let receiver = try await NotificationReceiver(
            secret: NotificationDeliveryTests.secret,
            log: NotificationDeliveryTests.temporary("gpay-receiver").appendingPathExtension("jsonl")
        )
        defer { receiver.stop() }
        let store = NotificationDeliveryTests.temporary("gpay-notify").appendingPathExtension("sqlite")
        let gateway = try await RunningGateway(
            store: store,
            environment: NotificationDeliveryTests.settings(url: receiver.url + "/hook").merging(Self.sandboxRoot(beside: store)) { $1 }
        )
        defer { gateway.process.terminate() }
        let token = try await Self.mint(port: gateway.port, ["authMethod": "CRYPTOGRAM_3DS"])
        let paid = try await ReplicaCluster.send(
            port: gateway.port,
            "/order/gp-notify/transaction/1",
            body: Self.body("PAY", amount: "56.56", token: token)
        )
        #expect(paid.status == 201)
        let retrieved = try await ReplicaCluster.send(port: gateway.port, "/order/gp-notify/transaction/1")
        let arrival = try #require(await receiver.waitForDistinct(1).first)
        #expect(arrival.secretMatches)
        #expect(arrival.body == String(decoding: retrieved.body, as: UTF8.self), "the body is Retrieve Transaction's")
        let notified = ReplicaCluster.json(Data(arrival.body.utf8))
        #expect(Self.text(notified, "order.walletProvider") == "GOOGLE_PAY")
        #expect(Self.text(notified, "sourceOfFunds.provided.card.devicePayment.cryptogramFormat") == "3DSECURE")
    }

    @Test("a token accepted on one replica is refused on the other, through PostgreSQL")
    func replayAcrossReplicas() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gpay-replicas-\(UUID().uuidString)")
        let cluster = try await ReplicaCluster(
            replicas: 2,
            storeURL: try await PostgresTestServer.shared().createDatabase(),
            environment: ["GATEWAY_SANDBOX_GOOGLE_PAY_DIRECTORY": root.path]
        )
        defer { cluster.stop() }
        let (a, b) = (cluster.replicas[0].port, cluster.replicas[1].port)
        let token = try await Self.mint(port: a, [:])
        let first = try await ReplicaCluster.send(port: a, "/order/gp-replica-1/transaction/1", body: Self.body("PAY", amount: "2.00", token: token))
        #expect(first.status == 201, "\(ReplicaCluster.json(first.body))")
        let second = try await ReplicaCluster.send(port: b, "/order/gp-replica-2/transaction/1", body: Self.body("PAY", amount: "2.00", token: token))
        #expect(second.status == 400)
        #expect(String(decoding: second.body, as: UTF8.self).contains("Google Pay token rejected: REPLAYED"))
    }

    @Test("production without googlePay.rootKeys starts with Google Pay off and says so; a key file it cannot use is refused")
    func productionConfiguration() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gpay-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = ServeCommandTests.packageRoot.appendingPathComponent("Config/sandbox/google-pay-key.pem").path
        func configuration(_ extra: String) throws -> String {
            let path = directory.appendingPathComponent("gateway-\(UUID().uuidString).json").path
            let text = """
                {"mode": "production", "store": {"url": "sqlite://\(directory.path)/g.sqlite"}, "merchants": ["SHOP"],
                 "merchant": {"SHOP": {"apiPasswords": ["00112233445566778899aabbccddeeff"], "googlePay": {"privateKeys": ["\(key)"]}}}\(extra)}
                """
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let unusable = try Gateway.run(["check-config", "--config", try configuration(#", "googlePay": {"rootKeys": "\#(key)"}"#)])
        #expect(unusable.status == 78 && unusable.stderr.contains("googlePay.rootKeys"), "\(unusable.stderr)")
        let keysFile = directory.appendingPathComponent("keys.json").path
        try
            #"{"keys":[{"keyValue":"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEGnJ7Yo1sX9b4kr4Aa5uq58JRQfzD8bIJXw7WXaap/hVE+PnFxvjx4nVxt79SdRuUVeu++HZD0cGAv4IOznc96w==","protocolVersion":"ECv2"}]}"#
            .write(toFile: keysFile, atomically: true, encoding: .utf8)
        let configured = try Gateway.run(["check-config", "--config", try configuration(#", "googlePay": {"rootKeys": "\#(keysFile)"}"#)])
        #expect(configured.status == 0, "\(configured.stderr)")

        // Without the root keys: the gateway starts, its start-up line names the merchant whose
        // Google Pay is off, and a Google Pay token is refused as for a merchant without a key.
        let store = directory.appendingPathComponent("serve.sqlite")
        let gateway = try await RunningGateway(store: store, environment: ["GATEWAY_MODE": "production"])
        defer { gateway.process.terminate() }
        #expect(gateway.startLine.contains("Google Pay off for TESTMERCHANT: production needs googlePay.rootKeys"), "\(gateway.startLine)")
        let refused = try await ReplicaCluster.send(
            port: gateway.port,
            "/order/gp-production/transaction/1",
            body: Self.body(
                "PAY",
                amount: "1.00",
                token:
                    #"{"protocolVersion":"ECv2","signature":"AA==","intermediateSigningKey":{"signedKey":"{}","signatures":["AA=="]},"signedMessage":"{}"}"#
            )
        )
        #expect(String(decoding: refused.body, as: UTF8.self).contains("GOOGLE_PAY_NOT_ENABLED"), "\(String(decoding: refused.body, as: UTF8.self))")
    }

    // MARK: - Helpers

    /// Where the gateway keeps its sandbox Google root: beside the store, so parallel tests never share one.
    static func sandboxRoot(beside store: URL) -> [String: String] {
        ["GATEWAY_SANDBOX_GOOGLE_PAY_DIRECTORY": store.path + ".google-pay-sandbox"]
    }

    static func mintResponse(port: Int, _ fields: [String: String]) async throws -> [String: Any] {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/sandbox/merchant/TESTMERCHANT/googlepay/token")!)
        request.httpMethod = "POST"
        request.setValue(ReplicaCluster.authorization, forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: fields)
        let (data, response) = try await ReplicaCluster.session.data(for: request)
        try #require((response as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")
        return ReplicaCluster.json(data)
    }

    /// A token minted by the gateway's sandbox endpoint: its JSON text.
    static func mint(port: Int, _ fields: [String: String]) async throws -> String {
        try #require(try await mintResponse(port: port, fields)["paymentToken"] as? String)
    }

    static func body(_ operation: String, amount: String?, token: String, wallet: String? = "GOOGLE_PAY") -> Data {
        var order: [String: Any] = ["currency": "USD"]
        if let amount { order["amount"] = amount }
        if let wallet { order["walletProvider"] = wallet }
        let body: [String: Any] = [
            "apiOperation": operation, "order": order,
            "sourceOfFunds": ["type": "CARD", "provided": ["card": ["devicePayment": ["paymentToken": token]]]],
        ]
        return try! JSONSerialization.data(withJSONObject: body)
    }

    /// The token with one character of its encrypted message changed.
    static func alter(_ token: String) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(token.utf8)) as? [String: Any])
        let signed = try #require(object["signedMessage"] as? String)
        let marker = "\"encryptedMessage\":\""
        let start = try #require(signed.range(of: marker)).upperBound
        let original = signed[start]
        object["signedMessage"] = signed.replacingCharacters(in: start...start, with: original == "A" ? "B" : "A")
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    /// A dotted path's string in a JSON object.
    static func text(_ json: [String: Any], _ path: String) -> String? {
        var value: Any? = json
        for part in path.split(separator: ".") { value = (value as? [String: Any])?[String(part)] }
        return value as? String
    }
}
