import Foundation
import Logging

/// What both processors work with: the store, the per-order locks they share, the clock and the
/// front end's observer.
package struct ProcessingEnvironment: Sendable {
    package let store: any TransactionStore
    /// Shared by both processors, so an AUTHORIZE and a CAPTURE on one order never interleave.
    package let locks: OrderLocks
    let clock: @Sendable () -> Date
    let observer: any PaymentObserver
    /// The payer authentications an AUTHORIZE or PAY may name (the same database's).
    package let authentications: any AuthenticationStore
    /// Where a follow-on finds the notification URL its order chose; nil: no outbox.
    package var outbox: (any NotificationOutbox)? = nil
    /// Rung after a transaction with a notification commits, to wake the delivery loop.
    package var notificationDoorbell: NotificationDoorbell? = nil
    /// Hands the delivery loop what was just recorded, so it need not read it back.
    package var justRecorded: JustRecordedTransactions? = nil

    package init(
        store: any TransactionStore,
        locks: OrderLocks = OrderLocks(),
        clock: @escaping @Sendable () -> Date,
        observer: any PaymentObserver,
        authentications: any AuthenticationStore = NoAuthenticationStore()
    ) {
        self.authentications = authentications
        self.store = store
        self.locks = locks
        self.clock = clock
        self.observer = observer
    }

    /// The time a transaction is recorded at, to the millisecond the stores keep, so a retried
    /// request's stored response matches exactly.
    func now() -> Date {
        Date(milliseconds: clock().milliseconds)
    }

    func commit(
        _ record: TransactionRecord,
        _ context: TransactionContext,
        logger: Logger,
        card: String? = nil
    )
        async throws -> ProcessedTransaction
    {
        let processed = try await store.commit(record, context, logger: logger, observer: observer, card: card)
        queued(record, processed)
        return processed
    }

    func committed(
        _ record: TransactionRecord,
        _ outcome: RecordOutcome,
        _ context: TransactionContext,
        logger: Logger,
        card: String? = nil
    ) throws -> ProcessedTransaction {
        let processed = try store.committed(record, outcome, context, logger: logger, observer: observer, card: card)
        queued(record, processed)
        return processed
    }

    /// A committed record with a notification wakes the delivery loop (a replayed answer queued
    /// nothing new, but a ring costs nothing); a new one is handed over too.
    private func queued(_ record: TransactionRecord, _ processed: ProcessedTransaction) {
        guard record.notification != nil else { return }
        if case .recorded(let recorded) = processed { justRecorded?.remember(recorded) }
        notificationDoorbell?.ring()
    }
}
