import AsyncHTTPClient
import Synchronization

/// HTTP clients that connect a host name to one address the delivery loop has checked, keeping
/// the name for the `Host` header, the TLS server name and the certificate check. The client
/// would otherwise resolve the name again, and a rebinding name answers that second lookup with
/// 127.0.0.1. AsyncHTTPClient pins names only per client (`dnsOverride`), so there is one per
/// (host, address), kept for its pooled connections; the least recently used idle ones are shut
/// down past `capacity`.
final class PinnedHTTPClients: Sendable {
    private struct Key: Hashable {
        var host: String
        var address: IPAddress
    }

    private struct Entry {
        var client: HTTPClient
        var users = 0
        var lastUsed: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var tick: UInt64 = 0
    }

    private let state = Mutex(State())
    private let configuration: HTTPClient.Configuration
    let capacity: Int

    init(configuration: HTTPClient.Configuration, capacity: Int = 32) {
        self.configuration = configuration
        self.capacity = capacity
    }

    /// Runs `body` with a client that connects `host` (as the URL spells it) to `address` only.
    func withClient<Value>(host: String, address: IPAddress, _ body: (HTTPClient) async -> Value) async -> Value {
        let (client, evicted) = acquire(Key(host: host, address: address))
        for old in evicted { try? await old.shutdown() }
        defer { release(Key(host: host, address: address)) }
        return await body(client)
    }

    /// How many clients are kept (for tests).
    var count: Int { state.withLock { $0.entries.count } }

    func shutdown() async {
        let clients = state.withLock { state in
            defer { state.entries = [:] }
            return state.entries.values.map(\.client)
        }
        for client in clients { try? await client.shutdown() }
    }

    private func acquire(_ key: Key) -> (HTTPClient, evicted: [HTTPClient]) {
        state.withLock { state in
            state.tick += 1
            if var entry = state.entries[key] {
                entry.users += 1
                entry.lastUsed = state.tick
                state.entries[key] = entry
                return (entry.client, [])
            }
            var pinned = configuration
            pinned.dnsOverride = [key.host: key.address.description]
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: pinned)
            state.entries[key] = Entry(client: client, users: 1, lastUsed: state.tick)
            var evicted: [HTTPClient] = []
            let idle = state.entries.filter { $0.value.users == 0 }.sorted { $0.value.lastUsed < $1.value.lastUsed }
            for (old, entry) in idle.prefix(max(0, state.entries.count - capacity)) {
                state.entries[old] = nil
                evicted.append(entry.client)
            }
            return (client, evicted)
        }
    }

    private func release(_ key: Key) {
        state.withLock { state in
            state.entries[key]?.users -= 1
        }
    }
}
