import Dispatch
import HTTPTypes
import Hummingbird
import NIOCore
import NIOEmbedded
import Synchronization
import Testing

@testable import GatewayTransport

/// Where a request's task runs. The server's event loops hand each request to a task of its own,
/// which starts from a loop thread and so inherits nothing from the task that runs the server.
@Suite("RouterCall")
struct RouterCallTests {
    /// A task executor on a dispatch queue of its own, which knows its own jobs by a queue key.
    final class QueueExecutor: TaskExecutor {
        static let key = DispatchSpecificKey<Bool>()
        private let queue = DispatchQueue(label: "router-call-tests")

        init() { queue.setSpecific(key: Self.key, value: true) }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }

    /// What the router saw of the task that answered.
    struct Seen: Sendable {
        var preference: UnownedTaskExecutor?
        var onTheExecutorsQueue: Bool
    }

    /// Builds a call (under `executor`'s preference when given), sends it one request, and
    /// returns what the router saw and the answer's status.
    static func answer(buildingUnder executor: QueueExecutor?) async throws -> (Seen, HTTPResponse.Status?) {
        let seen = Mutex<Seen?>(nil)
        let respond: RouterCall.Respond = { _, _ in
            seen.withLock {
                $0 = Seen(
                    preference: withUnsafeCurrentTask { $0?.unownedTaskExecutor },
                    onTheExecutorsQueue: DispatchQueue.getSpecific(key: QueueExecutor.key) == true
                )
            }
            return Response(status: .accepted)
        }
        let call = await withTaskExecutorPreference(executor) { RouterCall(respond: respond, serverName: "test") }
        let channel = NIOAsyncTestingChannel()
        let request = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/information"),
            body: RequestBody(buffer: ByteBuffer())
        )
        let status = await withCheckedContinuation { (answered: CheckedContinuation<HTTPResponse.Status?, Never>) in
            call.start(request, on: channel, logger: LogCollector().logger) { answered.resume(returning: $0?.head.status) }
        }
        return (try #require(seen.withLock { $0 }), status)
    }

    @Test("a server built under a task executor preference has its requests answered on that executor")
    func keepsTheBuildersPreference() async throws {
        let executor = QueueExecutor()
        let (seen, status) = try await Self.answer(buildingUnder: executor)
        #expect(status == .accepted)
        #expect(seen.preference == executor.asUnownedTaskExecutor())
        #expect(seen.onTheExecutorsQueue)
    }

    @Test("built with no preference (the gateway itself), a request's task has none either")
    func noPreference() async throws {
        let (seen, status) = try await Self.answer(buildingUnder: nil)
        #expect(status == .accepted)
        #expect(seen.preference == nil)
        #expect(!seen.onTheExecutorsQueue)
    }
}
