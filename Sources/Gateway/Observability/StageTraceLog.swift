import Foundation
import GatewayCore

/// `log.stageTrace`: one line per answered request, with when it passed each stage
/// (``RequestStages``), appended to a file for `scripts/bench-stages` to join with the client's
/// due times. A diagnostic for latency tails: each line costs a write(2) on the event loop.
final class StageTraceLog: Sendable {
    private let descriptor: Int32

    /// Starts the file afresh.
    init(path: String) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ConfigurationError(key: "log.stageTrace", problem: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    /// A request's stages, read from now, for the task answering it to carry. The path is masked
    /// as the log masks it: a client may put a card number in an order id.
    func stages(for path: String) -> RequestStages {
        RequestStages(path: CardNumberRedaction.mask(path))
    }

    /// The request's line, with the time its answer was handed to the connection.
    func write(_ stages: RequestStages) {
        let line = stages.line(answered: RequestStages.now())
        // One write of a few dozen bytes to a file opened for appending: whole, in order.
        _ = line.utf8CString.withUnsafeBufferPointer { Foundation.write(descriptor, $0.baseAddress, $0.count - 1) }
    }
}
