import Dispatch

/// A serial executor of SQLite's own: jobs run one at a time on a Dispatch queue, so SQLite's
/// blocking calls (a read that waits on the disk, `busy_timeout`) never hold one of the event
/// loops that serve HTTP and run Swift's tasks. An actor whose executor this is owns its
/// connection outright: the compiler, not a comment, keeps it to one thread at a time.
final class SQLiteExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }
}
