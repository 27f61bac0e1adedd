import Foundation
import GatewayCore

/// Notifications the delivery loop has leased and not yet started, oldest first, and how many of
/// each merchant's are sending. A merchant whose receiver never answers must not hold every slot:
/// one merchant may use at most `cap` of them (the rest are kept for the others), and past its
/// `share` it starts another only when no other merchant's notification is waiting, so a busy
/// merchant alone still uses most of the slots while another's notification waits for at most one
/// of its sends to end, never for a receiver that does not answer.
struct WaitingNotifications {
    private var leased: [(notification: OutboxNotification, leaseUntil: Date)] = []
    private var sending: [String: Int] = [:]
    let share: Int
    let cap: Int

    /// A quarter of the slots as each merchant's share, three quarters as its cap.
    init(concurrency: Int) {
        share = max(1, concurrency / 4)
        cap = max(share, concurrency - share)
    }

    var count: Int { leased.count }

    /// Merchants holding (sending or waiting) their cap: a lease leaves theirs in the outbox,
    /// so it reaches the others' behind them.
    var merchantsAtCap: Set<String> {
        var held = sending
        for entry in leased { held[entry.notification.merchantId, default: 0] += 1 }
        return Set(held.filter { $0.value >= cap }.keys)
    }

    /// Whether one waiting notification may start now.
    var hasStartable: Bool { leased.contains { sending[$0.notification.merchantId, default: 0] < cap } }

    mutating func append(_ notifications: [OutboxNotification], leaseUntil: Date) {
        leased.append(contentsOf: notifications.map { ($0, leaseUntil) })
    }

    /// The next notification to send, counted as sending: the oldest whose merchant is below its
    /// share, else the oldest whose merchant is below its cap. One whose lease would end before
    /// `attemptsEndBy` is dropped instead: its lease expires and it is leased again, rather than
    /// sent while another loop may take it over.
    mutating func start(attemptsEndBy: Date) -> OutboxNotification? {
        leased.removeAll { $0.leaseUntil < attemptsEndBy }
        let sending = sending
        guard
            let index = leased.firstIndex(where: { sending[$0.notification.merchantId, default: 0] < share })
                ?? leased.firstIndex(where: { sending[$0.notification.merchantId, default: 0] < cap })
        else { return nil }
        let notification = leased.remove(at: index).notification
        self.sending[notification.merchantId, default: 0] += 1
        return notification
    }

    mutating func finished(_ merchantId: String) {
        sending[merchantId, default: 1] -= 1
        if sending[merchantId] == 0 { sending[merchantId] = nil }
    }
}
