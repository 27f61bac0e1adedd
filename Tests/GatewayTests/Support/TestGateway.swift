import ApplePaySandbox
import ApplePayToken
import BlockingWork
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PostgresTestServer
import StoreTestSupport
import Testing
import WireJSON

@testable import Gateway
@testable import GatewayStores
@testable import MPGSAPI

/// A gateway as `gateway serve` builds it in sandbox mode, on a temporary SQLite file (or a new
/// PostgreSQL database, or a given store URL to restart on) and a sandbox authority directory,
/// whose minter makes real tokens for TESTMERCHANT's identities.
struct TestGateway: Sendable {
    static let merchantId = "TESTMERCHANT"
    static let password = "00112233445566778899aabbccddeeff"
    static let otherMerchantId = "OTHERMERCHANT"
    static let otherPassword = "ffeeddccbbaa99887766554433221100"
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// One authority for the whole run: generating RSA keys is slow.
    static let authority: SandboxAuthority = try! SandboxAuthority.generate()

    let directory: URL
    let services: GatewayDependencies

    init(
        signingTimeWindow: TimeInterval = 300,
        directory: URL? = nil,
        store: StoreKind = .sqlite,
        storeURL: String? = nil,
        mode: GatewayConfiguration.Mode = .sandbox,
        clock: @escaping @Sendable () -> Date = { Date() },
        sessionLifetime: TimeInterval = 3600,
        radialDecrypt: Bool = false,
        requestFingerprintKey: [UInt8]? = nil,
        tokens: TokenRepository? = nil,
        newChainsPerSecond: Int = GatewayConfiguration().newChainsPerSecond,
        stageTracePath: String? = nil,
        /// The merchant has the sandbox Google Pay key, as the sandbox defaults give it.
        googlePay: Bool = true
    ) async throws {
        let directory =
            directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("gateway-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The gateway loads the authority from its directory, as `gateway serve` does.
        let authorityDirectory = directory.appendingPathComponent("sandbox-authority")
        // Made once, on a thread of its own: its RSA keys take seconds.
        let authority = try await onAThreadOfItsOwn { Self.authority }
        // The files, the store's migrations and the generated keys are written and synced on a
        // thread of their own too: on Swift's two cooperative threads, a disk busy with other
        // work kept both in fsync for seconds, and every test in the run waited with them.
        try await onAThreadOfItsOwn { try authority.write(to: authorityDirectory) }
        self.directory = directory
        var configuration = GatewayConfiguration()
        configuration.mode = mode
        if let storeURL {
            configuration.storeURL = storeURL
        } else {
            configuration.storeURL = try await store.newStoreURL(in: directory)
        }
        configuration.signingTimeWindow = signingTimeWindow
        configuration.newChainsPerSecond = newChainsPerSecond
        configuration.stageTracePath = stageTracePath
        // Generous for a loaded 2-core machine running the whole suite; the outage tests set their
        // own, short, timeouts.
        configuration.storeTimeout = PostgresTestServer.generousStoreTimeout
        configuration.sandboxAuthorityDirectory = authorityDirectory.path
        configuration.merchants = [
            .init(
                id: Self.merchantId,
                apiPasswords: [Self.password],
                identities: ["ec", "rsa"].map { kind in
                    .init(
                        name: kind,
                        privateKeyPath: Self.sandboxFile("merchant-\(kind)-key.pem"),
                        certificatePath: Self.sandboxFile("merchant-\(kind)-cert.pem")
                    )
                },
                amountMatching: .both,
                radialDecrypt: radialDecrypt,
                tokens: tokens
            ),
            .init(id: Self.otherMerchantId, apiPasswords: [Self.otherPassword], identities: [], amountMatching: .both),
        ]
        configuration.sessions.lifetime = sessionLifetime
        // The sandbox Google root is made in the test's directory, not the working directory's data/.
        configuration.googlePaySandboxDirectory = directory.appendingPathComponent("google-pay-sandbox").path
        if googlePay {
            configuration.merchants[0].googlePay = GooglePaySettings(
                gatewayId: GooglePaySettings.defaultGatewayId,
                privateKeyPaths: [Self.sandboxFile("google-pay-key.pem")]
            )
        }
        if let requestFingerprintKey { configuration.requestFingerprintKey = requestFingerprintKey }
        let settings = configuration
        services = try await onAThreadOfItsOwn { try GatewayDependencies(configuration: settings, clock: clock) }
    }

    static func sandboxFile(_ name: String) -> String {
        packageRoot.appendingPathComponent("Config/sandbox/\(name)").path
    }

    var application: some ApplicationProtocol {
        buildApplication(services, logger: Logger(label: "test"))
    }

    /// The application logging through `logger` (for example into a ``LogCollector``).
    func application(logger: Logger) -> some ApplicationProtocol {
        buildApplication(services, logger: logger)
    }

    /// A real token for TESTMERCHANT's EC (or RSA) identity.
    static func mintToken(
        amountMinorUnits: Int64,
        currencyCode: String = "840",
        version: MintRequest.Version = .ecV1,
        configure: (inout MintRequest) -> Void = { _ in }
    ) throws -> String {
        var request = MintRequest()
        request.version = version
        request.transactionAmount = amountMinorUnits
        request.currencyCode = currencyCode
        request.applicationPrimaryAccountNumber = "5204245250001488"
        configure(&request)
        let certificate = try KeyMaterial.certificate(
            from: Data(contentsOf: URL(fileURLWithPath: sandboxFile("merchant-\(version == .ecV1 ? "ec" : "rsa")-cert.pem")))
        )
        return try TokenMinter(authority: authority).mint(request, for: MintRecipient(certificate: certificate))
    }

    static func authorization(_ merchant: String = merchantId, _ password: String = password) -> String {
        "Basic " + Data("merchant.\(merchant):\(password)".utf8).base64EncodedString()
    }

    static func path(order: String, transaction: String, merchant: String = merchantId, version: Int = 100) -> String {
        "/api/rest/version/\(version)/merchant/\(merchant)/order/\(order)/transaction/\(transaction)"
    }

    /// A body for an Apple Pay token payment.
    static func tokenBody(
        _ token: String,
        operation: String = "AUTHORIZE",
        amount: String,
        currency: String = "USD",
        walletProvider: String? = "APPLE_PAY",
        extraDevicePayment: [String: String] = [:]
    ) -> Data {
        var devicePayment: [String: Any] = ["paymentToken": token]
        devicePayment.merge(extraDevicePayment) { $1 }
        var order: [String: Any] = ["amount": amount, "currency": currency]
        if let walletProvider { order["walletProvider"] = walletProvider }
        return json([
            "apiOperation": operation, "order": order,
            "sourceOfFunds": ["type": "CARD", "provided": ["card": ["devicePayment": devicePayment]]],
            "transaction": ["source": "INTERNET"],
        ])
    }

    static func json(_ object: [String: Any]) -> Data {
        try! JSONSerialization.data(withJSONObject: object)
    }

    /// A body for a plain card payment.
    static func cardBody(
        operation: String = "PAY",
        amount: String,
        currency: String = "USD",
        month: String = "1",
        year: String = "39",
        securityCode: String? = nil
    ) -> Data {
        var card: [String: Any] = ["number": "5123450000000008", "expiry": ["month": month, "year": year]]
        if let securityCode { card["securityCode"] = securityCode }
        return json([
            "apiOperation": operation, "order": ["amount": amount, "currency": currency],
            "sourceOfFunds": ["type": "CARD", "provided": ["card": card]],
        ])
    }
}

/// One HTTP exchange, decoded.
struct Exchange {
    var status: HTTPResponse.Status
    var body: String
    var json: [String: Any]
    var headers: HTTPFields = [:]

    func string(_ path: String) -> String? {
        value(path) as? String
    }

    /// Whether the body is written as the gateway writes every JSON body: compact, keys sorted,
    /// so the same response always has the same bytes.
    var isCanonicalJSON: Bool {
        guard let value = try? JSONValue(parsing: Array(body.utf8)) else { return false }
        return value.serialized() == Array(body.utf8)
    }

    func value(_ path: String) -> Any? {
        var current: Any? = json
        for key in path.split(separator: ".") { current = (current as? [String: Any])?[String(key)] }
        return current
    }
}

extension TestClientProtocol {
    func put(_ path: String, _ body: Data, authorization: String? = TestGateway.authorization()) async throws -> Exchange {
        try await send(path, method: .put, body: body, authorization: authorization)
    }

    func send(
        _ path: String,
        method: HTTPRequest.Method,
        body: Data? = nil,
        authorization: String? = TestGateway.authorization()
    )
        async throws -> Exchange
    {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let authorization { headers[.authorization] = authorization }
        return try await execute(
            uri: path,
            method: method,
            headers: headers,
            body: body.map { ByteBuffer(bytes: Array($0)) }
        ) { response in
            let text = String(buffer: response.body)
            let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
            return Exchange(status: response.status, body: text, json: json, headers: response.headers)
        }
    }
}

#if canImport(FoundationNetworking)
import FoundationNetworking
import GatewayCore
#endif

/// Requests sent at once over many connections (the test client has one connection, which
/// would serialize them).
enum ParallelHTTP {
    static func put(port: Int, paths: [String], body: @escaping @Sendable (Int) -> Data) async throws -> [(status: Int, json: [String: Any])] {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = paths.count
        let session = URLSession(configuration: configuration)
        return try await withThrowingTaskGroup(of: (Int, Int, Data).self) { group in
            for (index, path) in paths.enumerated() {
                group.addTask {
                    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
                    request.httpMethod = "PUT"
                    request.setValue(TestGateway.authorization(), forHTTPHeaderField: "Authorization")
                    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                    request.httpBody = body(index)
                    let (data, response) = try await session.data(for: request)
                    return (index, (response as? HTTPURLResponse)?.statusCode ?? 0, data)
                }
            }
            var results = [(Int, Int, Data)]()
            for try await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map { result in
                (result.1, (try? JSONSerialization.jsonObject(with: result.2)) as? [String: Any] ?? [:])
            }
        }
    }
}
