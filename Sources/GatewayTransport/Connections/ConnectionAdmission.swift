import Logging
import NIOCore
import Synchronization

/// Keeps connection slots (`server.maxConnections`) for clients that use them:
/// - connections that have not sent a complete request, whether silent, trickling a head or
///   trickling a body, may hold at most three quarters of the slots: past that, the oldest of them
///   is closed. A connection younger than `admissionGrace` is never the one closed: a client
///   reconnecting as fast as it is closed would otherwise cycle the slots faster than a loaded
///   server reads a well-behaved client's request, which arrived in the same instant. Young
///   connections may overflow the share for a moment; when their grace ends, the oldest go;
/// - connections idle between requests (keep-alive) give way: whenever every slot is taken (a new
///   connection took the last one, or one became idle with none free), the longest-idle one is
///   closed, so the next client is accepted rather than left in the kernel's backlog; and while
///   more than half the slots are taken, a connection idle longer than `pressureIdleTimeout` is
///   closed when the next one arrives.
/// The accept-level cap would otherwise stop accepting until a deadline or the idle timeout fires.
package final class ConnectionAdmission: Sendable {
    private struct Tracked {
        var order: UInt64
        var channel: any Channel
        /// On its event loop's clock: closed for the pending share only once `admissionGrace` past.
        var admittedAt: NIODeadline
    }

    private struct State {
        var nextOrder: UInt64 = 0
        var open: Set<ObjectIdentifier> = []
        var pending: [ObjectIdentifier: Tracked] = [:]
        /// Idle between requests, with the moment they became idle.
        var idle: [ObjectIdentifier: (since: NIODeadline, channel: any Channel)] = [:]
    }

    /// How many connections without a complete request may be open at once.
    let pendingLimit: Int
    let maxConnections: Int
    let pressureIdleTimeout: TimeAmount
    /// How long a new connection is safe from being closed for the pending share.
    let admissionGrace: TimeAmount
    package let notices: ConnectionNotices
    private let state = Mutex(State())

    package init(
        maxConnections: Int,
        pressureIdleTimeout: TimeAmount = .seconds(5),
        admissionGrace: TimeAmount = .milliseconds(200),
        notices: ConnectionNotices
    ) {
        self.maxConnections = maxConnections
        pendingLimit = max(1, maxConnections - maxConnections / 4)
        self.pressureIdleTimeout = pressureIdleTimeout
        self.admissionGrace = admissionGrace
        self.notices = notices
    }

    package convenience init(maxConnections: Int, logger: Logger) {
        self.init(maxConnections: maxConnections, notices: ConnectionNotices(logger: logger))
    }

    /// A new connection: pending until its first request is complete.
    package func admit(_ channel: any Channel) {
        // By the close future, not a handler: a connection its client closed before setup
        // finished never runs the pipeline's handlers, and would keep its slot here for ever.
        channel.closeFuture.whenComplete { [self] _ in closed(channel) }
        let now = NIODeadline.now()
        var overflowing = false
        let evicted: [(any Channel, String)] = state.withLock { state in
            let id = ObjectIdentifier(channel)
            state.open.insert(id)
            // Read under the lock, so admission times rise with `order`.
            let admittedAt = channel.eventLoop.now
            state.pending[id] = Tracked(order: state.nextOrder, channel: channel, admittedAt: admittedAt)
            state.nextOrder += 1
            var evicted = evictPendingOverLimit(&state, now: admittedAt)
            overflowing = state.pending.count > pendingLimit
            if state.open.count > maxConnections / 2 {
                for (key, idle) in state.idle where now - idle.since >= pressureIdleTimeout {
                    state.idle[key] = nil
                    evicted.append((idle.channel, "idle keep-alive connection closed while over half the slots are taken"))
                }
            }
            if state.open.count - evicted.count >= maxConnections,
                let longest = state.idle.min(by: { $0.value.since < $1.value.since })
            {
                state.idle[longest.key] = nil
                evicted.append((longest.value.channel, "longest-idle keep-alive connection closed to free a slot"))
            }
            return evicted
        }
        close(evicted)
        // Only when young connections overflow the share (an attack, not the usual case) does a
        // timer look again once this one's grace is over; by then every older one's is too.
        if overflowing {
            let loop = channel.eventLoop
            loop.scheduleTask(in: admissionGrace) { [self] in
                close(state.withLock { evictPendingOverLimit(&$0, now: loop.now) })
            }
        }
    }

    /// The oldest pending connections past their grace, closed until the pending share fits. The
    /// oldest is the first admitted, so once it is within its grace every other one is too.
    private func evictPendingOverLimit(_ state: inout State, now: NIODeadline) -> [(any Channel, String)] {
        var evicted: [(any Channel, String)] = []
        while state.pending.count > pendingLimit,
            let oldest = state.pending.min(by: { $0.value.order < $1.value.order }),
            now - oldest.value.admittedAt >= admissionGrace
        {
            state.pending[oldest.key] = nil
            evicted.append((oldest.value.channel, "more than \(pendingLimit) connections without a complete request"))
        }
        return evicted
    }

    private func close(_ evicted: [(any Channel, String)]) {
        for (channel, reason) in evicted {
            notices.notice(reason)
            channel.close(promise: nil)
        }
    }

    /// The connection completed a request: it no longer counts as pending.
    func settle(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        state.withLock { state in
            if state.pending[id] != nil { state.pending[id] = nil }
        }
    }

    /// The connection answered everything it was sent and waits for another request. With every
    /// slot taken, the longest-idle connection gives its slot up at once: new connections wait
    /// in the backlog, where no admission can make room for them.
    func becameIdle(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let evicted: (any Channel)? = state.withLock { state in
            guard state.open.contains(id) else { return nil }
            state.idle[id] = (.now(), channel)
            // Never itself: its response is not flushed yet, and it is the newest idle anyway.
            guard state.open.count >= maxConnections,
                let longest = state.idle.filter({ $0.key != id }).min(by: { $0.value.since < $1.value.since })
            else { return nil }
            state.idle[longest.key] = nil
            state.open.remove(longest.key)
            return longest.value.channel
        }
        if let evicted {
            notices.notice("longest-idle keep-alive connection closed to free a slot")
            evicted.close(promise: nil)
        }
    }

    /// The connection started another request.
    func becameBusy(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        state.withLock { state in
            if state.idle[id] != nil { state.idle[id] = nil }
        }
    }

    /// The connection closed (its close future completed).
    private func closed(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        state.withLock { state in
            state.open.remove(id)
            state.pending[id] = nil
            state.idle[id] = nil
        }
    }

    package var pendingCount: Int { state.withLock { $0.pending.count } }
    package var idleCount: Int { state.withLock { $0.idle.count } }
}
