import Foundation
import GatewayCore

/// Notifications the delivery loop has leased and not yet started, oldest first, and how many of
/// each merchant's are sending. A merchant may use at most `share` of the loop's slots: one whose
/// receiver never answers ties up only its own share, and its later notifications wait here (or,
/// past the share, in the outbox) while other merchants' go.
struct WaitingNotifications {
    private var leased: [(notification: OutboxNotification, leaseUntil: Date)] = []
    private var sending: [String: Int] = [:]
    let share: Int

    init(share: Int) {
        self.share = share
    }

    /// A merchant's share of `concurrency` slots: a quarter, so four receivers that never answer
    /// are needed to hold every slot, and at least one.
    static func share(of concurrency: Int) -> Int { max(1, concurrency / 4) }

    var count: Int { leased.count }

    /// Merchants with their share sending or waiting: a lease should leave theirs in the outbox.
    var merchantsAtShare: Set<String> {
        var held = sending
        for entry in leased { held[entry.notification.merchantId, default: 0] += 1 }
        return Set(held.filter { $0.value >= share }.keys)
    }

    /// Whether one waiting notification may start now.
    var hasStartable: Bool { leased.contains { sending[$0.notification.merchantId, default: 0] < share } }

    mutating func append(_ notifications: [OutboxNotification], leaseUntil: Date) {
        leased.append(contentsOf: notifications.map { ($0, leaseUntil) })
    }

    /// The oldest notification whose merchant is below its share, counted as sending. One whose
    /// lease would end before `attemptsEndBy` is dropped instead of started: its lease expires
    /// and it is leased again, rather than sent while another loop may take it over.
    mutating func start(attemptsEndBy: Date) -> OutboxNotification? {
        leased.removeAll { $0.leaseUntil < attemptsEndBy }
        guard let index = leased.firstIndex(where: { sending[$0.notification.merchantId, default: 0] < share }) else { return nil }
        let notification = leased.remove(at: index).notification
        sending[notification.merchantId, default: 0] += 1
        return notification
    }

    mutating func finished(_ merchantId: String) {
        sending[merchantId, default: 1] -= 1
        if sending[merchantId] == 0 { sending[merchantId] = nil }
    }
}
