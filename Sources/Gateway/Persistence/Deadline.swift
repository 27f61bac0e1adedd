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
    /// and woke a Dispatch thread to fire it. As before, the time counts from when the work
    /// starts to run, and the answer to a timeout is given by a task: when Swift's executor is
    /// starved (a test run's blocked threads), work and timeout wait alike.
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
                race.armTimer(timeout)
                let result: Result<Value, any Error>
                do { result = .success(try await work()) } catch { result = .failure(error) }
                race.timer.withLock { $0 }?.cancel()
                race.waiter.withLock { $0.take() }?.resume(with: result)
            }
            race.task.withLock { $0 = task }
        }
    }

    /// Whichever of the work and the timer finishes first resumes the caller.
    private final class Race<Value: Sendable>: Sendable {
        let waiter = Mutex<CheckedContinuation<Value, any Error>?>(nil)
        let timer = Mutex<Scheduled<Void>?>(nil)
        let task = Mutex<Task<Void, Never>?>(nil)

        func armTimer(_ timeout: Duration) {
            let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: TimeAmount(timeout)) {
                _ = Task { self.timeOut(timeout) }
            }
            self.timer.withLock { $0 = timer }
        }

        private func timeOut(_ timeout: Duration) {
            guard let continuation = waiter.withLock({ $0.take() }) else { return }
            task.withLock { $0 }?.cancel()
            continuation.resume(throwing: StoreUnavailable(reason: "no answer within \(timeout)"))
        }
    }
}
