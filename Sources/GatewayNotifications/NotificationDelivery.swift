import Foundation
import GatewayCore
import Logging
import MPGSAPI
import NIOHTTP1
import ServiceLifecycle

/// The delivery loop: leases due notifications from the outbox, POSTs each transaction (as
/// Retrieve Transaction returns it) to its URL, and records the outcome. Any 2xx is delivered;
/// anything else is retried with backoff until the horizon, then failed and counted. At least
/// once: a notification is marked delivered only after its 2xx, so a crash in between sends it
/// again, with the same `X-Notification-Id`.
package struct NotificationDelivery: Service {
    let outbox: any NotificationOutbox
    /// Rung by this replica's commits of transactions with a notification: no waiting out the poll.
    let doorbell: NotificationDoorbell
    /// This replica's transactions as just recorded: their bodies without a read back.
    let justRecorded: JustRecordedTransactions
    let store: any TransactionStore
    let merchants: [String: Merchant]
    let settings: NotificationSettings
    let production: Bool
    let metrics: NotificationMetrics
    let clock: @Sendable () -> Date
    let logger: Logger
    /// This process's name on its leases.
    let owner = UUID().uuidString

    /// Where hosts point; the system's resolver unless a test answers.
    var resolver: any HostResolver = SystemHostResolver()

    package init(
        outbox: any NotificationOutbox,
        doorbell: NotificationDoorbell,
        justRecorded: JustRecordedTransactions,
        store: any TransactionStore,
        merchants: [String: Merchant],
        settings: NotificationSettings,
        production: Bool,
        metrics: NotificationMetrics,
        clock: @escaping @Sendable () -> Date,
        logger: Logger
    ) {
        self.outbox = outbox
        self.doorbell = doorbell
        self.justRecorded = justRecorded
        self.store = store
        self.merchants = merchants
        self.settings = settings
        self.production = production
        self.metrics = metrics
        self.clock = clock
        self.logger = logger
    }

    package func run() async throws {
        let sender = NotificationSender(settings: settings, production: production, resolver: resolver)
        await cancelWhenGracefulShutdown { await loop(sender) }
        await sender.shutdown()
    }

    /// What the loop waits for: a send finishing, or the doorbell (a ring or the poll's timeout).
    private enum Event: Sendable {
        case finished(merchantId: String, delivered: OutboxNotification?)
        /// `rang`: a commit queued a notification (else the timeout ended the wait).
        case woke(rang: Bool)
    }

    /// Keeps up to `concurrency` notifications in flight, sharing the slots between merchants
    /// (``WaitingNotifications``): they were shared first come, and 40 notifications to one
    /// receiver that never answered made another merchant's wait 25 s. The share is per merchant,
    /// not per receiver host: the merchant is who the gateway serves, the outbox can leave a
    /// merchant's notifications where they are, and one host may receive for many merchants (a
    /// platform), whom a per-host share would make wait for each other.
    ///
    /// It leases (up to four rounds of sends at once, so a busy outbox costs few lease writes)
    /// when no leased notification can start and a slot is free: at once when none waits and at
    /// most half are in flight, else at most once a poll, leaving out merchants at their cap. It
    /// marks the delivered ones a round at a time, or a poll after the first of them.
    private func loop(_ sender: NotificationSender) async {
        let poll = Duration.milliseconds(settings.pollIntervalMilliseconds)
        // While leases find nothing the loop looks less and less often, up to once a second: an
        // idle gateway leased 20 times a second (12 ms of CPU a second in a release build, 171
        // wake-ups). A ring (this replica's commit) still wakes it at once; what it finds late
        // is another process's redelivery or a retry falling due, both seconds apart anyway.
        let idlePollCeiling = max(poll, .seconds(1))
        var idlePoll = poll
        let leaseSize = settings.concurrency * 4
        var lastBacklog = Date.distantPast
        var lastLease = ContinuousClock.now - poll
        // Lease at the next turn: the last lease was full, or the doorbell or the poll said so.
        var leaseNow = true
        var waiting = WaitingNotifications(concurrency: settings.concurrency)
        var inFlight = 0
        var delivered: [OutboxNotification] = []
        var firstUnmarked = ContinuousClock.now
        // Whether a doorbell wait is among the group's tasks (one at a time), and whether the
        // last one ended with a ring not yet answered by a lease.
        var listening = false
        var rang = false
        await withTaskGroup(of: Event.self) { group in
            while !Task.isCancelled {
                let now = clock()
                if now.timeIntervalSince(lastBacklog) >= 1 {
                    lastBacklog = now
                    await recordBacklog(now)
                }
                // A ring leases at once only when the loop is not busy, so a stream of commits
                // costs a lease a round, not one each; otherwise what waits is found within a poll.
                if doorbell.takeRing() { rang = true }
                let soon = (leaseNow || rang) && waiting.count == 0 && inFlight <= settings.concurrency / 2
                if inFlight < settings.concurrency, !waiting.hasStartable, soon || ContinuousClock.now - lastLease >= poll {
                    rang = false
                    let wanted = leaseSize - inFlight
                    let leaseUntil = now.addingTimeInterval(TimeInterval(settings.leaseSeconds))
                    let leased = await lease(at: now, until: leaseUntil, limit: wanted, skipping: waiting.merchantsAtCap)
                    waiting.append(leased, leaseUntil: leaseUntil)
                    lastLease = .now
                    leaseNow = leased.count == wanted
                    idlePoll = leased.isEmpty ? min(idlePoll * 2, idlePollCeiling) : poll
                }
                // Started only with a lease that outlasts the attempt.
                let attemptsEndBy = clock().addingTimeInterval(TimeInterval(settings.timeoutSeconds))
                while inFlight < settings.concurrency, let next = waiting.start(attemptsEndBy: attemptsEndBy) {
                    group.addTask { .finished(merchantId: next.merchantId, delivered: await deliver(next, sender)) }
                    inFlight += 1
                }
                if !listening {
                    listening = true
                    // A ring not yet answered by a lease is looked at again within a poll.
                    let timeout = rang ? poll : idlePoll
                    group.addTask { .woke(rang: await doorbell.wait(timeout: timeout)) }
                }
                switch await group.next() {
                case .finished(let merchantId, let finished):
                    inFlight -= 1
                    waiting.finished(merchantId)
                    if let finished {
                        if delivered.isEmpty { firstUnmarked = .now }
                        delivered.append(finished)
                    }
                case .woke(let ring):
                    listening = false
                    leaseNow = true
                    if ring { rang = true }
                case nil:
                    break
                }
                if !delivered.isEmpty,
                    delivered.count >= settings.concurrency || inFlight == 0 || ContinuousClock.now - firstUnmarked >= poll
                {
                    await markDelivered(delivered)
                    delivered = []
                }
            }
            // Shutting down: the sends under way end (cancelled or answered); record what was
            // delivered. Those leased and not started go again when their lease expires.
            for await case .finished(_, let finished?) in group {
                delivered.append(finished)
            }
        }
        await markDelivered(delivered)
    }

    private func lease(at now: Date, until leaseUntil: Date, limit: Int, skipping merchants: Set<String>) async -> [OutboxNotification] {
        do {
            return try await outbox.leaseNotifications(owner: owner, now: now, leaseUntil: leaseUntil, limit: limit, skippingMerchants: merchants)
        } catch {
            logger.warning("notification outbox unavailable", metadata: ["error": "\(type(of: error))"])
            return []
        }
    }

    /// Marks delivered notifications in one write (each mark a commit: one per notification was
    /// once the loop's main cost).
    private func markDelivered(_ delivered: [OutboxNotification]) async {
        guard !delivered.isEmpty else { return }
        do {
            let marked = try await outbox.notificationsDelivered(ids: delivered.map(\.id), owner: owner, at: clock())
            for notification in delivered where marked.contains(notification.id) {
                metrics.notificationDelivered()
                logger.info("notification delivered", metadata: Self.metadata(notification))
            }
        } catch {
            // The leases expire and the notifications go again: at least once, never lost.
            logger.warning("notification outcomes not recorded", metadata: ["error": "\(type(of: error))", "count": "\(delivered.count)"])
        }
    }

    private static func metadata(_ notification: OutboxNotification) -> Logger.Metadata {
        [
            "notificationId": "\(notification.id)", "merchant": "\(notification.merchantId)",
            "orderId": "\(notification.orderId)", "transactionId": "\(notification.transactionId)",
            "attempt": "\(notification.attempts)",
        ]
    }

    private func recordBacklog(_ now: Date) async {
        guard let backlog = try? await outbox.notificationBacklog() else { return }
        let age = backlog.oldestPendingCreatedAt.map { max(0, now.timeIntervalSince($0)) } ?? 0
        metrics.backlog(pending: backlog.pending, oldestAgeSeconds: age)
    }

    /// One attempt; the notification when it was delivered (marked with its batch), else nil
    /// with the failure recorded.
    private func deliver(_ notification: OutboxNotification, _ sender: NotificationSender) async -> OutboxNotification? {
        var metadata = Self.metadata(notification)
        let outcome = await attempt(notification, sender)
        do {
            switch outcome {
            case .delivered:
                return notification
            case .failed(let cause, let permanent, let reason):
                metadata["cause"] = "\(cause)"
                if let reason { metadata["reason"] = "\(reason)" }
                metrics.attemptFailed(cause: cause)
                let retryAt =
                    permanent
                    ? nil : settings.retry.nextAttempt(afterAttempts: notification.attempts, createdAt: notification.createdAt, now: clock())
                guard try await outbox.notificationAttemptFailed(id: notification.id, owner: owner, cause: cause, retryAt: retryAt)
                else { return nil }
                if let retryAt {
                    // ISO 8601, as every time the gateway writes (an epoch float also looked like a card number to the log's masker).
                    metadata["retryAt"] = "\(retryAt.formatted(.iso8601))"
                    logger.notice("notification attempt failed", metadata: metadata)
                } else {
                    metrics.notificationFailed()
                    logger.warning("notification failed: retry horizon passed", metadata: metadata)
                }
            }
        } catch {
            // The lease expires and another attempt follows: at least once, never lost.
            logger.warning("notification outcome not recorded", metadata: metadata.merging(["error": "\(type(of: error))"]) { $1 })
        }
        return nil
    }

    enum Outcome {
        case delivered(Int)
        /// The cause, as the failure metric labels it; a permanent one (a URL this gateway will
        /// never send to) is not retried. The reason, for the log: which rule refused the URL.
        case failed(String, permanent: Bool = false, reason: String? = nil)
    }

    /// One POST; never throws, every failure is a cause.
    private func attempt(_ notification: OutboxNotification, _ sender: NotificationSender) async -> Outcome {
        guard let secret = merchants[notification.merchantId]?.notifications?.secret else { return .failed("merchant_not_configured") }
        let checked: NotificationSender.CheckedTarget
        do {
            checked = try await sender.check(notification.url)
        } catch let refusal as NotificationTargetRefusal {
            return .failed(refusal.cause, permanent: refusal.isPermanent, reason: refusal.problem)
        } catch {
            return .failed("resolver")
        }
        var stored = justRecorded.take(
            merchantId: notification.merchantId,
            orderId: notification.orderId,
            transactionId: notification.transactionId
        )
        if stored == nil {
            do {
                stored = try await store.transaction(
                    merchantId: notification.merchantId,
                    orderId: notification.orderId,
                    transactionId: notification.transactionId
                )
            } catch {
                return .failed("store_unavailable")
            }
        }
        guard let stored else { return .failed("transaction_missing") }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "X-Notification-Secret", value: secret)
        headers.add(name: "X-Notification-Id", value: "\(notification.id)")
        headers.add(name: "X-Notification-Attempt", value: "\(notification.attempts)")
        headers.add(name: "User-Agent", value: "applepay-gateway-notifications")
        return await sender.post(checked, headers: headers, body: NotificationBody.bytes(stored))
    }
}
