import GatewayCore
import NIOCore
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
    /// The caller's cancellation reaches the work: a request whose client went away, or a
    /// shutdown, does not leave its query running to the deadline. A PostgreSQL operation closes
    /// its connection when cancelled, so work cut off here ends soon after.
    ///
    /// The work runs in a task of its own, not a child, because a child that ignores cancellation
    /// would hold the caller past the deadline: the one thing this type exists to prevent. This
    /// was tried as a task group (work and timer as children): against a frozen PostgreSQL server
    /// about one run in fifteen of `PostgresStoreTests` never returned, some PostgresNIO wait
    /// answering neither the cancellation nor the closed connection.
    static func run<Value: Sendable>(
        _ timeout: Duration,
        timerOn eventLoops: any EventLoopGroup,
        _ work: @escaping @Sendable () async throws -> Value
    ) async throws
        -> Value
    {
        let race = Race<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.waiter.withLock { $0 = continuation }
                race.start(
                    Task {
                        race.armTimer(timeout, on: eventLoops.any())
                        let result: Result<Value, any Error>
                        do { result = .success(try await work()) } catch { result = .failure(error) }
                        race.timer.withLock { $0 }?.cancel()
                        race.waiter.withLock { $0.take() }?.resume(with: result)
                    }
                )
            }
        } onCancel: {
            race.cancel()
        }
    }

    /// Whichever of the work and the timer finishes first resumes the caller.
    private final class Race<Value: Sendable>: Sendable {
        let waiter = Mutex<CheckedContinuation<Value, any Error>?>(nil)
        let timer = Mutex<Scheduled<Void>?>(nil)
        /// The work's task, and whether the caller was cancelled (perhaps before the task existed).
        private let work = Mutex<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))

        func start(_ task: Task<Void, Never>) {
            let cancelled = work.withLock { work in
                work.task = task
                return work.cancelled
            }
            if cancelled { task.cancel() }
        }

        func cancel() {
            work.withLock { work in
                work.cancelled = true
                return work.task
            }?.cancel()
        }

        func armTimer(_ timeout: Duration, on eventLoop: any EventLoop) {
            let timer = eventLoop.scheduleTask(in: TimeAmount(timeout)) {
                _ = Task { self.timeOut(timeout) }
            }
            self.timer.withLock { $0 = timer }
        }

        private func timeOut(_ timeout: Duration) {
            guard let continuation = waiter.withLock({ $0.take() }) else { return }
            work.withLock { $0.task }?.cancel()
            continuation.resume(throwing: StoreUnavailable(reason: "no answer within \(timeout)"))
        }
    }
}
