import Foundation

/// Runs blocking work (child processes, key generation, waits) on a new thread and resumes with
/// its result. On the cooperative pool (two threads here) a few seconds of such work, or a lazy
/// static that other tests wait on while it is made, stalls every other test in the process.
public func onAThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
