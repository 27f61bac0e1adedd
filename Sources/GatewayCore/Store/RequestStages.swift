import Dispatch
import Synchronization

/// When one request passed each stage on its way through the server, for `log.stageTrace`: a
/// latency tail is queueing somewhere (before the request is read, behind the writer, in the
/// commit, on the way out), and only per-request timestamps say where. Monotonic nanoseconds
/// (`DispatchTime`'s, as the server times everything: CLOCK_MONOTONIC on Linux, the clock
/// `http-bench-rate` stamps its due times with), 0 for a stage the request never reached. The
/// channel marks the ends; the store marks the commit.
package final class RequestStages: Sendable {
    /// The request being answered by this task, when stages are traced.
    @TaskLocal package static var current: RequestStages?

    /// The path of the request (its order and transaction ids), to join with the client's record.
    package let path: String
    /// The whole request was in hand and its task started.
    package let read: UInt64
    private let submittedAt = Atomic<UInt64>(0)
    private let commitStartedAt = Atomic<UInt64>(0)
    private let committedAt = Atomic<UInt64>(0)
    private let batch = Atomic<Int>(0)

    package init(path: String, read: UInt64 = RequestStages.now()) {
        self.path = path
        self.read = read
    }

    /// Its record was handed to the writer: everything before is reading, deciding, decrypting.
    package func submitted() { submittedAt.store(Self.now(), ordering: .relaxed) }

    /// The writer began the commit holding its record, with `batchSize` records in it.
    package func commitStarted(batchSize: Int) {
        commitStartedAt.store(Self.now(), ordering: .relaxed)
        batch.store(batchSize, ordering: .relaxed)
    }

    /// That commit is durable.
    package func committed() { committedAt.store(Self.now(), ordering: .relaxed) }

    /// One line: the path, then read, submitted, commit start, committed and `answered` (ns), and
    /// the commit's batch size. Read after the answer, which the commit's continuation precedes.
    package func line(answered: UInt64) -> String {
        let times = [
            read, submittedAt.load(ordering: .relaxed), commitStartedAt.load(ordering: .relaxed),
            committedAt.load(ordering: .relaxed), answered,
        ]
        return "\(path) " + times.map(String.init).joined(separator: " ") + " \(batch.load(ordering: .relaxed))\n"
    }

    package static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
