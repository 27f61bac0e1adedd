import Logging
import NIOCore
import Synchronization

/// Keeps a share of the connection slots (`server.maxConnections`) for connections that have sent
/// a complete request: those that have not, whether silent, trickling a head or trickling a body,
/// may hold at most three quarters of them. Past that, the oldest of them is closed to admit the
/// new one, so slow clients can never fill the server and leave a well-behaved one waiting in the
/// kernel's backlog (the accept-level cap would otherwise stop accepting until a deadline fires).
final class ConnectionAdmission: Sendable {
    private struct Pending {
        var order: UInt64
        var channel: any Channel
    }

    private struct State {
        var nextOrder: UInt64 = 0
        var pending: [ObjectIdentifier: Pending] = [:]
    }

    /// How many connections without a complete request may be open at once.
    let pendingLimit: Int
    private let logger: Logger
    private let state = Mutex(State())

    init(maxConnections: Int, logger: Logger) {
        pendingLimit = max(1, maxConnections - maxConnections / 4)
        self.logger = logger
    }

    /// A new connection: pending until its first request is complete.
    func admit(_ channel: any Channel) {
        let evicted: (any Channel)? = state.withLock { state in
            state.pending[ObjectIdentifier(channel)] = Pending(order: state.nextOrder, channel: channel)
            state.nextOrder += 1
            guard state.pending.count > pendingLimit,
                let oldest = state.pending.min(by: { $0.value.order < $1.value.order })
            else { return nil }
            state.pending[oldest.key] = nil
            return oldest.value.channel
        }
        if let evicted {
            logger.notice("connection closed: more than \(pendingLimit) connections without a complete request")
            evicted.close(promise: nil)
        }
    }

    /// The connection completed a request, or closed: it no longer counts as pending.
    func settle(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        state.withLock { state in
            if state.pending[id] != nil { state.pending[id] = nil }
        }
    }

    var pendingCount: Int { state.withLock { $0.pending.count } }
}
