import ApplePaySandbox
import ApplePayToken
import Foundation
import PostgresTestServer
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Gateway processes (`gateway serve`, the real binary) sharing one PostgreSQL database, trusting
/// a sandbox authority whose tokens the tests mint.
struct ReplicaCluster {
    static let authorization =
        "Basic " + Data("merchant.TESTMERCHANT:00112233445566778899aabbccddeeff".utf8).base64EncodedString()
    /// One authority for the whole run: generating RSA keys is slow.
    static let authority: SandboxAuthority = try! SandboxAuthority.generate()
    /// The authority's directory, shared by every replica as a deployment would share it.
    static let authorityDirectory: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replica-authority-\(UUID().uuidString)")
        try! authority.write(to: directory)
        return directory
    }()

    let storeURL: String
    var replicas: [RunningGateway]

    /// - Parameter environment: more GATEWAY_* settings for every replica.
    init(replicas count: Int, storeURL: String, storeTimeoutSeconds: Int = 5, environment: [String: String] = [:]) async throws {
        self.storeURL = storeURL
        var replicas: [RunningGateway] = []
        for _ in 0..<count {
            replicas.append(
                try await RunningGateway(
                    storeURL: storeURL,
                    sandboxAuthority: Self.authorityDirectory,
                    environment: [
                        "GATEWAY_STORE_TIMEOUT_SECONDS": "\(storeTimeoutSeconds)",
                        "GATEWAY_LOG_LEVEL": "notice",
                    ].merging(environment) { $1 }
                )
            )
        }
        self.replicas = replicas
    }

    func stop() {
        for replica in replicas where replica.process.isRunning { replica.process.terminate() }
    }

    /// An AUTHORIZE body with a fresh EC_v1 token for TESTMERCHANT's sandbox identity.
    /// With `transactionId`, the token has those bytes as its Apple transaction id, its hex
    /// rewritten by `spelling` (the signature covers the bytes, so it stays valid).
    static func tokenBody(
        amountMinorUnits: Int64 = 5656,
        transactionId: [UInt8]? = nil,
        spelling: (String) -> String = { $0 }
    ) throws -> Data {
        var request = MintRequest()
        request.transactionAmount = amountMinorUnits
        request.transactionId = transactionId
        let certificate = try KeyMaterial.certificate(
            from: Data(contentsOf: ServeCommandTests.packageRoot.appendingPathComponent("Config/sandbox/merchant-ec-cert.pem"))
        )
        var token = try TokenMinter(authority: authority).mint(request, for: MintRecipient(certificate: certificate))
        if let transactionId {
            let hex = transactionId.map { String(format: "%02x", $0) }.joined()
            token = token.replacingOccurrences(of: "\"\(hex)\"", with: "\"\(spelling(hex))\"")
        }
        let body: [String: Any] = [
            "apiOperation": "AUTHORIZE",
            "order": [
                "amount": String(format: "%.2f", Double(amountMinorUnits) / 100), "currency": "USD",
                "walletProvider": "APPLE_PAY",
            ],
            "sourceOfFunds": ["type": "CARD", "provided": ["card": ["devicePayment": ["paymentToken": token]]]],
        ]
        return try JSONSerialization.data(withJSONObject: body)
    }

    static func cardBody(operation: String = "PAY", amount: String) -> Data {
        Data(
            #"{"apiOperation":"\#(operation)","order":{"amount":"\#(amount)","currency":"USD"},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"}}}}}"#
                .utf8
        )
    }

    static func captureBody(amount: String) -> Data {
        Data(#"{"apiOperation":"CAPTURE","transaction":{"amount":"\#(amount)","currency":"USD"}}"#.utf8)
    }

    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 32
        configuration.timeoutIntervalForRequest = 15
        return URLSession(configuration: configuration)
    }()

    /// Sends a 1.00 PAY on `order` until one is answered 201 (bounded): the first request also
    /// connects and migrates, which on a busy machine may outlast a short store timeout. Whether
    /// it got one.
    static func warmUp(port: Int, order: String) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if try await send(port: port, "/order/\(order)/transaction/1", body: cardBody(amount: "1.00")).status == 201 { return true }
        }
        return false
    }

    /// PUT or GET under /api/rest/version/100/merchant/TESTMERCHANT; status and body.
    static func send(port: Int, _ path: String, body: Data? = nil) async throws -> (status: Int, body: Data, retryAfter: String?) {
        var request = URLRequest(url: RunningGateway.url(port: port, "/merchant/TESTMERCHANT\(path)"))
        request.httpMethod = body == nil ? "GET" : "PUT"
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        let (data, response) = try await session.data(for: request)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, data, http?.value(forHTTPHeaderField: "Retry-After"))
    }

    /// CAPTUREs of 1.00 each on one order from `clients` clients at once, client N sending to
    /// `ports[N % ports.count]`, each client its next capture only once the last is answered (so no
    /// request waits out its timeout queued behind the others on a loaded machine). Every answer's
    /// status and `result`.
    static func raceCaptures(order: String, count: Int, clients: Int, ports: [Int]) async throws -> [(status: Int, result: String?)] {
        try await withThrowingTaskGroup(of: [(status: Int, result: String?)].self) { group in
            for client in 0..<clients {
                group.addTask {
                    var answers: [(status: Int, result: String?)] = []
                    for index in stride(from: client, to: count, by: clients) {
                        let response = try await send(
                            port: ports[client % ports.count],
                            "/order/\(order)/transaction/c\(index)",
                            body: captureBody(amount: "1.00")
                        )
                        answers.append((response.status, json(response.body)["result"] as? String))
                    }
                    return answers
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    /// The status of GET /readyz.
    static func readiness(port: Int) async -> Int {
        let url = URL(string: "http://127.0.0.1:\(port)/readyz")!
        let response = try? await session.data(from: url).1
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    static func json(_ data: Data) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }
}

/// A value tasks share.
final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func withLock<Result>(_ body: (inout sending Value) -> sending Result) -> sending Result { value.withLock(body) }
}
