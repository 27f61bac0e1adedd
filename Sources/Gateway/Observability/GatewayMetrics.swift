import ApplePayToken
import Dispatch
import GatewayCore
import Metrics
import Prometheus
import Synchronization

/// The service's metrics, in its own Prometheus registry.
///
/// One registry per gateway rather than the process-wide `MetricsSystem`: tests build many
/// gateways in one process and each reads its own figures. Metrics are recorded through
/// swift-metrics types bound to this registry's factory. Every label is low-cardinality: route
/// templates, methods, status codes, operations, gateway and error codes; never ids or secrets.
final class GatewayMetrics: PaymentObserver {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// What the decryptor's chain cache had counted at the last scrape: counters move by the difference.
    private let lastChainCache = Mutex((hits: 0, misses: 0))

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Token work and SQLite calls take well under the default 5 ms first bucket.
        let fine: [Duration] = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .seconds(1),
        ]
        factory.durationHistogramBuckets = [
            Names.tokenDuration: fine,
            Names.storeDuration: fine,
        ]
        self.factory = factory
    }

    enum Names {
        static let requests = "gateway_http_requests_total"
        static let requestDuration = "gateway_http_request_duration_seconds"
        static let transactions = "gateway_transactions_total"
        static let tokenFailures = "gateway_token_failures_total"
        static let tokenDuration = "gateway_token_decrypt_duration_seconds"
        static let chainCacheHits = "gateway_chain_cache_hits_total"
        static let chainCacheMisses = "gateway_chain_cache_misses_total"
        static let storeDuration = "gateway_store_operation_duration_seconds"
        static let radialDecrypts = "gateway_radial_decrypt_total"
    }

    func request(method: String, route: String, status: Int, nanoseconds: UInt64) {
        let dimensions = [("method", method), ("route", route), ("status", String(status))]
        Counter(label: Names.requests, dimensions: dimensions, factory: factory).increment()
        Timer(label: Names.requestDuration, dimensions: dimensions, factory: factory).recordNanoseconds(nanoseconds)
    }

    func transaction(operation: String, gatewayCode: String) {
        let dimensions = [("operation", operation), ("gateway_code", gatewayCode)]
        Counter(label: Names.transactions, dimensions: dimensions, factory: factory).increment()
    }

    func transactionRecorded(operation: APIOperation, gatewayCode: GatewayCode) {
        transaction(operation: operation.rawValue, gatewayCode: gatewayCode.rawValue)
    }

    func tokenDecrypted(succeeded: Bool, nanoseconds: UInt64) {
        tokenDecrypt(succeeded: succeeded, nanoseconds: nanoseconds)
    }

    /// One Radial-style Decrypt call: DECRYPTED, or the fault or token code it ended with.
    func radialDecrypt(result: String) {
        Counter(label: Names.radialDecrypts, dimensions: [("result", result)], factory: factory).increment()
    }

    func tokenFailure(code: String) {
        Counter(label: Names.tokenFailures, dimensions: [("code", code)], factory: factory).increment()
    }

    func tokenDecrypt(succeeded: Bool, nanoseconds: UInt64) {
        let dimensions = [("outcome", succeeded ? "success" : "failure")]
        Timer(label: Names.tokenDuration, dimensions: dimensions, factory: factory).recordNanoseconds(nanoseconds)
    }

    func store(operation: String, nanoseconds: UInt64) {
        Timer(label: Names.storeDuration, dimensions: [("operation", operation)], factory: factory)
            .recordNanoseconds(nanoseconds)
    }

    /// The Prometheus text exposition, with the chain cache's counts brought up to date first
    /// (the token library counts them itself and knows nothing of Prometheus).
    func exposition(chainCache: ChainCacheStatistics) -> [UInt8] {
        let (hits, misses) = lastChainCache.withLock { last in
            defer { last = (chainCache.hits, chainCache.misses) }
            return (chainCache.hits - last.hits, chainCache.misses - last.misses)
        }
        Counter(label: Names.chainCacheHits, factory: factory).increment(by: max(hits, 0))
        Counter(label: Names.chainCacheMisses, factory: factory).increment(by: max(misses, 0))
        return registry.emitToBuffer()
    }
}

/// Nanoseconds since `start`, on the monotonic clock.
func elapsedNanoseconds(since start: UInt64) -> UInt64 {
    DispatchTime.now().uptimeNanoseconds - start
}
