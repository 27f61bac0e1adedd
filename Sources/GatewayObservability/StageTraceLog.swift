import Foundation
import GatewayCore
import GatewayTransport

/// `log.stageTrace`: one line per answered request, with when it passed each stage
/// (``RequestStages``), appended to a file for `scripts/bench-stages` to join with the client's
/// due times. A diagnostic for latency tails: each line costs a write(2) on the event loop.
package final class StageTraceLog: Sendable {
    private let descriptor: Int32

    /// Starts the file afresh.
    package init(path: String) throws(OpenFailure) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw OpenFailure(description: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// The file could not be opened for writing, in words for the configuration error.
    package struct OpenFailure: Error, CustomStringConvertible {
        package let description: String
    }

    deinit { close(descriptor) }

    /// A request's stages, read from now, for the task answering it to carry. The path is masked
    /// as the log masks it: a client may put a card number in an order id.
    func stages(for path: String) -> RequestStages {
        RequestStages(path: CardNumberRedaction.mask(path))
    }

    /// The transport's hook: each request's task carries its stages, for the store to mark.
    package var tracer: RequestTracer {
        { path in StageTrace(log: self, stages: self.stages(for: path)) }
    }

    /// The request's line, with the time its answer was handed to the connection.
    func write(_ stages: RequestStages) {
        let line = stages.line(answered: RequestStages.now())
        // One write of a few dozen bytes to a file opened for appending: whole, in order.
        _ = line.utf8CString.withUnsafeBufferPointer { Foundation.write(descriptor, $0.baseAddress, $0.count - 1) }
    }
}

/// One traced request: its stages as the task-local the store marks, written once answered.
private final class StageTrace: RequestTrace {
    let log: StageTraceLog
    let stages: RequestStages

    init(log: StageTraceLog, stages: RequestStages) {
        self.log = log
        self.stages = stages
    }

    func run(_ answer: () async -> RouterCall.Answer) async -> RouterCall.Answer {
        await RequestStages.$current.withValue(stages) { await answer() }
    }

    func answered() { log.write(stages) }
}
