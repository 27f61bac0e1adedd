import ApplePayToken
import Dispatch
import GatewayCore
import GatewayTransport
import Metrics
import Prometheus
import RadialAPI
import Synchronization

/// The service's metrics, in its own Prometheus registry.
///
/// One registry per gateway rather than the process-wide `MetricsSystem`: tests build many
/// gateways in one process and each reads its own figures. Metrics are recorded through
/// swift-metrics types bound to this registry's factory. Every label is low-cardinality: route
/// templates, methods, status codes, operations, gateway and error codes; never ids or secrets.
package final class GatewayMetrics: PaymentObserver, RadialObserver {
    package let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// What the decryptor's chain cache had counted at the last scrape: counters move by the difference.
    private let lastChainCache = Mutex((hits: 0, misses: 0))

    package init() {
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
        tokenDecryptSucceeded = Timer(label: Names.tokenDuration, dimensions: [("outcome", "success")], factory: factory)
        tokenDecryptFailed = Timer(label: Names.tokenDuration, dimensions: [("outcome", "failure")], factory: factory)
        requestsInFlight = Meter(label: Names.requestsInFlight, factory: factory)
    }

    // Handles made once per label set and kept: making one looks it up in the registry under a
    // lock with freshly built label strings, which cost more than the recording itself.
    private struct RequestKey: Hashable {
        let method: String
        let route: String
        let status: Int
    }
    private struct RequestHandles: Sendable {
        let count: Metrics.Counter
        let duration: Metrics.Timer
    }
    private let requestHandles = HandleCache<RequestKey, RequestHandles>()
    private let transactionCounters = HandleCache<[String], Metrics.Counter>()
    private let storeTimers = HandleCache<String, Metrics.Timer>()
    private let tokenDecryptSucceeded: Metrics.Timer
    private let tokenDecryptFailed: Metrics.Timer
    /// Requests whose head has been read and whose response is not yet written (a scrape does
    /// not count itself): what a graceful shutdown waits for.
    private let requestsInFlight: Metrics.Meter
    /// HTTP/2 answers held for clients that have not taken them; read at each scrape.
    package let http2Responses = HTTP2ResponseBudget()

    enum Names {
        static let requests = "gateway_http_requests_total"
        static let requestsInFlight = "gateway_http_requests_in_flight"
        static let requestDuration = "gateway_http_request_duration_seconds"
        static let transactions = "gateway_transactions_total"
        static let tokenFailures = "gateway_token_failures_total"
        static let tokenDuration = "gateway_token_decrypt_duration_seconds"
        static let chainCacheHits = "gateway_chain_cache_hits_total"
        static let chainCacheMisses = "gateway_chain_cache_misses_total"
        static let storeDuration = "gateway_store_operation_duration_seconds"
        static let radialDecrypts = "gateway_radial_decrypt_total"
        static let http2HeldBytes = "gateway_http2_held_response_bytes"
        static let storeUnavailable = "gateway_store_unavailable_total"
    }

    package func request(method: String, route: String, status: Int, nanoseconds: UInt64) {
        let key = RequestKey(method: method, route: route, status: status)
        let handles = requestHandles.handle(for: key) {
            let dimensions = [("method", method), ("route", route), ("status", String(status))]
            return RequestHandles(
                count: Counter(label: Names.requests, dimensions: dimensions, factory: factory),
                duration: Timer(label: Names.requestDuration, dimensions: dimensions, factory: factory)
            )
        }
        handles.count.increment()
        handles.duration.recordNanoseconds(nanoseconds)
    }

    package func requestStarted() { requestsInFlight.increment() }
    package func requestEnded() { requestsInFlight.decrement() }

    package func transaction(operation: String, gatewayCode: String) {
        transactionCounters.handle(for: [operation, gatewayCode]) {
            Counter(
                label: Names.transactions,
                dimensions: [("operation", operation), ("gateway_code", gatewayCode)],
                factory: factory
            )
        }.increment()
    }

    package func transactionRecorded(operation: APIOperation, gatewayCode: GatewayCode) {
        transaction(operation: operation.rawValue, gatewayCode: gatewayCode.rawValue)
    }

    package func tokenDecrypted(succeeded: Bool, nanoseconds: UInt64) {
        tokenDecrypt(succeeded: succeeded, nanoseconds: nanoseconds)
    }

    /// One Radial-style Decrypt call: DECRYPTED, or the fault or token code it ended with.
    package func radialDecrypt(result: String) {
        Counter(label: Names.radialDecrypts, dimensions: [("result", result)], factory: factory).increment()
    }

    package func tokenRejected(_ rejection: TokenRejection) {
        Counter(label: Names.tokenFailures, dimensions: [("code", rejection.code)], factory: factory).increment()
    }

    package func tokenDecrypt(succeeded: Bool, nanoseconds: UInt64) {
        (succeeded ? tokenDecryptSucceeded : tokenDecryptFailed).recordNanoseconds(nanoseconds)
    }

    package func store(operation: String, nanoseconds: UInt64) {
        storeTimers.handle(for: operation) {
            Timer(label: Names.storeDuration, dimensions: [("operation", operation)], factory: factory)
        }.recordNanoseconds(nanoseconds)
    }

    /// A store call refused because the store could not serve it, by operation and cause
    /// (`unreachable`, or `disk_full`, `io_error`, `read_only` for a store that cannot write).
    package func storeUnavailable(operation: String, cause: StoreUnavailable.Cause) {
        Counter(label: Names.storeUnavailable, dimensions: [("operation", operation), ("cause", cause.rawValue)], factory: factory)
            .increment()
    }

    /// The Prometheus text exposition, with the chain cache's counts brought up to date first
    /// (the token library counts them itself and knows nothing of Prometheus).
    package func exposition(chainCache: ChainCacheStatistics) -> [UInt8] {
        let (hits, misses) = lastChainCache.withLock { last in
            defer { last = (chainCache.hits, chainCache.misses) }
            return (chainCache.hits - last.hits, chainCache.misses - last.misses)
        }
        Counter(label: Names.chainCacheHits, factory: factory).increment(by: max(hits, 0))
        Counter(label: Names.chainCacheMisses, factory: factory).increment(by: max(misses, 0))
        Gauge(label: Names.http2HeldBytes, factory: factory).record(http2Responses.bytes)
        return registry.emitToBuffer()
    }
}

/// Metric handles by label values. Every label is low-cardinality (route templates, methods,
/// statuses, operations and codes), so the cache stays as small as the registry itself.
private final class HandleCache<Key: Hashable & Sendable, Handles: Sendable>: Sendable {
    private let handles = Mutex<[Key: Handles]>([:])

    func handle(for key: Key, make: () -> Handles) -> Handles {
        if let existing = handles.withLock({ $0[key] }) { return existing }
        let made = make()
        return handles.withLock { handles in
            if let existing = handles[key] { return existing }
            handles[key] = made
            return made
        }
    }
}

/// Nanoseconds since `start`, on the monotonic clock.
func elapsedNanoseconds(since start: UInt64) -> UInt64 {
    DispatchTime.now().uptimeNanoseconds - start
}
