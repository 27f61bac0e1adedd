import ApplePayToken
import GatewayCore
import GatewayHTTP
import Hummingbird
import MPGSAPI
import WireJSON

/// Operations endpoints, outside `/api/rest` and without merchant authentication: liveness,
/// readiness and the Prometheus scrape.
package struct HealthRoutes: Sendable {
    let store: any TransactionStore
    let merchants: [String: Merchant]
    let configuredIdentities: Int
    let metrics: GatewayMetrics
    let decryptor: ApplePayTokenDecryptor

    package init(
        store: any TransactionStore,
        merchants: [String: Merchant],
        configuredIdentities: Int,
        metrics: GatewayMetrics,
        decryptor: ApplePayTokenDecryptor
    ) {
        self.store = store
        self.merchants = merchants
        self.configuredIdentities = configuredIdentities
        self.metrics = metrics
        self.decryptor = decryptor
    }

    package func register(on router: Router<GatewayRequestContext>) {
        // The process is up and answering.
        router.get("/healthz") { _, _ in
            GatewayRoutes.json(.ok, .object(["status": .string("UP")]))
        }
        // Worth sending traffic to: the store answers a read and takes a write (a store whose
        // disk is full or failing is down until a write succeeds again), and every configured
        // key is loaded. A store that is down says why in `causes.store`.
        router.get("/readyz") { _, context in
            var storeDown: StoreUnavailable.Cause?
            do {
                try await store.checkReachable()
            } catch let error as StoreUnavailable {
                storeDown = error.cause
                error.log(to: context.logger)
            } catch {
                storeDown = .unreachable
                context.logger.warning("readiness: the store is not reachable", metadata: ["error": "\(error)"])
            }
            let loaded = merchants.values.map { $0.keyRing.identities.count }.reduce(0, +)
            let keysUp = !merchants.isEmpty && loaded == configuredIdentities
            let ready = storeDown == nil && keysUp
            var body: [String: JSONValue] = [
                "status": .string(ready ? "READY" : "NOT_READY"),
                "checks": .object(["store": .string(storeDown == nil ? "UP" : "DOWN"), "keys": .string(keysUp ? "UP" : "DOWN")]),
            ]
            if let storeDown { body["causes"] = .object(["store": .string(storeDown.rawValue)]) }
            return GatewayRoutes.json(ready ? .ok : .serviceUnavailable, .object(body))
        }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition(chainCache: decryptor.chainCacheStatistics)))
            )
        }
        for path in ["/healthz", "/readyz", "/metrics"] { router.refuseMethods(except: [.get], on: RouterPath(path)) }
    }
}
