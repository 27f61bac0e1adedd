import Foundation
import Synchronization

/// A task executor on threads of its own, for tests that block a thread: they wait for a child
/// process, poll a socket or sleep. On Swift's cooperative pool (one thread per CPU, two here)
/// two such tests stop every other test in the process, and their timings stretch by seconds:
/// a server under test looks slow to shut down when it is the test that was not running.
public final class BlockingWorkExecutor: TaskExecutor, Sendable {
    /// Wide enough for every test that blocks to block at once.
    public static let shared = BlockingWorkExecutor(threads: 48)

    private let jobs = Mutex<[UnownedJob]>([])
    private let waiting = DispatchSemaphore(value: 0)

    private init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [self] in work() }
            thread.name = "blocking-work-\(index)"
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        waiting.signal()
    }

    private func work() {
        while true {
            waiting.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
