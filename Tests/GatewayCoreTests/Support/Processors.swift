import ApplePayToken
import Foundation
import GooglePayToken
import NIOPosix
import PostgresTestServer
import Synchronization

@testable import GatewayCore
@testable import GatewayStores

/// The core's processors on a real store, without HTTP: a simulated acquirer, a fixed clock,
/// and a plain-text encoder standing in for the wire format.
struct Processors: Sendable {
    static let merchant = Merchant(
        id: "M",
        apiPasswords: ["secret"],
        keyRing: MerchantKeyRing([]),
        acquirer: SimulatedAcquirer()
    )

    let store: any TransactionStore
    let payments: PaymentProcessor
    let followOns: OrderOperationProcessor
    let observer = CountingObserver()

    init(store: any TransactionStore) {
        self.store = store
        let environment = ProcessingEnvironment(
            store: store,
            clock: { Date(milliseconds: 1_700_000_000_000) },
            observer: observer
        )
        payments = PaymentProcessor(
            environment,
            decryptor: ApplePayTokenDecryptor(),
            googlePayDecryptor: GooglePayTokenDecryptor(rootKeys: .googleTest)
        )
        followOns = OrderOperationProcessor(environment)
    }

    static func sqlite() throws -> Processors {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("core-\(UUID().uuidString).sqlite").path
        return Processors(store: try SQLiteTransactionStore(path: path, eventLoops: MultiThreadedEventLoopGroup.singleton))
    }

    static func postgres() async throws -> Processors {
        guard case .postgres(let location) = try StoreLocation(url: try await PostgresTestServer.shared().createDatabase()) else {
            throw PostgresTestServer.Failure(description: "not a PostgreSQL URL")
        }
        let store = PostgresTransactionStore(
            location: location,
            eventLoops: MultiThreadedEventLoopGroup.singleton,
            timeout: PostgresTestServer.generousStoreTimeout
        )
        try await store.prepare()
        return Processors(store: store)
    }

    static let fingerprinter = RequestFingerprinter(key: Array(repeating: 7, count: 32))

    static func context(order: String, transaction: String, hash: String? = nil) -> TransactionContext {
        TransactionContext(
            merchant: merchant,
            orderId: order,
            transactionId: transaction,
            version: .latest,
            fingerprint: fingerprinter.fingerprint(
                canonical: Array((hash ?? "\(order)/\(transaction)").utf8),
                legacyHashInput: { [] }
            ),
            encoding: PlainTextEncoder()
        )
    }

    static func card(_ operation: PaymentRequest.Operation, cents: Int64) -> PaymentRequest {
        PaymentRequest(
            operation: operation,
            amount: Amount(minorUnits: cents, currency: Currency(code: "USD")!),
            walletProvider: nil,
            orderReference: nil,
            transactionReference: nil,
            transactionSource: "INTERNET",
            source: .card(
                .init(number: "5123450000000008", expiry: CardExpiry(month: 1, year: 39), securityCode: nil, nameOnCard: nil)
            )
        )
    }

    func pay(
        _ operation: PaymentRequest.Operation,
        cents: Int64,
        order: String,
        transaction: String = "initial"
    )
        async throws -> String
    {
        let body = try await payments.process(
            Self.card(operation, cents: cents),
            Self.context(order: order, transaction: transaction),
            logger: .init(label: "test")
        )
        return String(decoding: body.responseBody, as: UTF8.self)
    }

    func followOn(_ request: FollowOnRequest, order: String, transaction: String) async throws -> String {
        let body = try await followOns.process(
            request,
            Self.context(order: order, transaction: transaction),
            logger: .init(label: "test")
        )
        return String(decoding: body.responseBody, as: UTF8.self)
    }
}

/// "TYPE GATEWAY_CODE STATUS": enough to tell what a processor decided.
struct PlainTextEncoder: TransactionResponseEncoding {
    var format: ResponseFormat { ResponseFormat(rawValue: "PLAIN_TEXT") }

    func followOnEcho(_ request: RequestEcho, latest: RequestEcho) -> RequestEcho { request }

    func encode(_ receipt: TransactionReceipt) -> [UInt8] {
        Array("\(receipt.transactionType.rawValue) \(receipt.outcome.gatewayCode.rawValue) \(receipt.order.status.rawValue)".utf8)
    }
}

final class CountingObserver: PaymentObserver {
    let recorded = Mutex<[String]>([])

    func transactionRecorded(operation: APIOperation, gatewayCode: GatewayCode) {
        recorded.withLock { $0.append("\(operation.rawValue) \(gatewayCode.rawValue)") }
    }

    func tokenDecrypted(succeeded: Bool, nanoseconds: UInt64) {}

    let tokenRejections = Mutex<[TokenRejection]>([])

    func tokenRejected(_ rejection: TokenRejection) {
        tokenRejections.withLock { $0.append(rejection) }
    }
}
