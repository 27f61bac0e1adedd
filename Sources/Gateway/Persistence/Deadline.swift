import NIOCore
import NIOPosix
import Synchronization

/// A bound on how long one store operation may take.
enum Deadline {
    /// Runs `work` but answers within `timeout` whatever happens to it: a query on a connection
    /// whose server vanished may never return, and a request must not hang with it. The work is
    /// cancelled when the time is up (a wait for a pooled connection ends at once).
    ///
    /// The timeout is an event loop's timer, cancelled when the work ends: a second task asleep
    /// in `Task.sleep` left a Dispatch timer pending for the whole timeout after every operation,
    /// and woke a Dispatch thread to fire it.
    static func run<Value: Sendable>(
        _ timeout: Duration,
        _ work: @escaping @Sendable () async throws -> Value
    ) async throws
        -> Value
    {
        let race = Race<Value>()
        return try await withCheckedThrowingContinuation { continuation in
            race.waiter.withLock { $0 = continuation }
            let task = Task {
                let result: Result<Value, any Error>
                do { result = .success(try await work()) } catch { result = .failure(error) }
                race.timer.withLock { $0 }?.cancel()
                race.waiter.withLock { $0.take() }?.resume(with: result)
            }
            let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: TimeAmount(timeout)) {
                guard let continuation = race.waiter.withLock({ $0.take() }) else { return }
                task.cancel()
                continuation.resume(throwing: StoreUnavailable(reason: "no answer within \(timeout)"))
            }
            race.timer.withLock { $0 = timer }
            // The work may have finished before the timer was stored.
            if race.waiter.withLock({ $0 == nil }) { timer.cancel() }
        }
    }

    /// Whichever of the work and the timer finishes first resumes the caller.
    private final class Race<Value: Sendable>: Sendable {
        let waiter = Mutex<CheckedContinuation<Value, any Error>?>(nil)
        let timer = Mutex<Scheduled<Void>?>(nil)
    }
}
