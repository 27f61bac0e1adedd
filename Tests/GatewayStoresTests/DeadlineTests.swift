import NIOCore
import NIOEmbedded
import NIOPosix
import StoreTestSupport
import Synchronization
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// The bound on one store operation: a hung query is answered as unavailable in time, a quick one
/// keeps its value or error and is never answered twice when its timer comes due.
@Suite("Store operation deadline")
struct DeadlineTests {
    /// Work that never returns by itself and ignores cancellation, as a query on a vanished
    /// server can; released at the end of the test so nothing is left suspended.
    final class Hang: Sendable {
        private let waiting = Mutex<CheckedContinuation<Void, Never>?>(nil)

        func wait() async {
            await withCheckedContinuation { continuation in waiting.withLock { $0 = continuation } }
        }

        func release() {
            waiting.withLock { $0.take() }?.resume()
        }
    }

    @Test("work that never returns is answered as unavailable when the time is up", .timeLimit(.minutes(1)))
    func hungWork() async throws {
        // The timer runs on a loop whose clock the test moves: no wall-clock wait, no race with it.
        let loop = NIOAsyncTestingEventLoop()
        let hang = Hang()
        let answer = Task {
            try await Deadline.run(.milliseconds(200), timerOn: loop) { () async throws -> Int in
                await hang.wait()
                return 1
            }
        }
        let answered = Mutex(false)
        Task {
            _ = await answer.result
            answered.withLock { $0 = true }
        }
        var moved = TimeAmount.zero
        while !answered.withLock({ $0 }) {
            await loop.advanceTime(by: .milliseconds(10))
            moved = moved + .milliseconds(10)
            await Task.yield()
        }
        #expect(moved >= .milliseconds(200), "answered after \(moved) of the loop's time, before the deadline")
        await #expect(throws: StoreUnavailable.self) { try await answer.value }
        hang.release()
        await loop.shutdownGracefully()
    }

    @Test("cancelling the caller cancels the work it bounds", .timeLimit(.minutes(1)))
    func callerCancellation() async throws {
        let workSawCancellation = Mutex(false)
        let workStarted = Mutex(false)
        let caller = Task {
            try await Deadline.run(.seconds(40), timerOn: MultiThreadedEventLoopGroup.singleton) { () async throws -> Int in
                workStarted.withLock { $0 = true }
                do {
                    try await Task.sleep(for: .seconds(40))
                } catch {
                    workSawCancellation.withLock { $0 = true }
                    throw error
                }
                return 1
            }
        }
        while !workStarted.withLock({ $0 }) { await Task.yield() }
        let cancelled = ContinuousClock.now
        caller.cancel()
        let result = await caller.result
        let waited = ContinuousClock.now - cancelled
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(workSawCancellation.withLock { $0 })
        // Far below the 40 s deadline, generous for a busy test run.
        #expect(waited < .seconds(20), "the caller waited \(waited) after it was cancelled")
    }

    @Test("quick work keeps its value and its error, and its timer never answers again")
    func quickWork() async throws {
        let loop = NIOAsyncTestingEventLoop()
        for attempt in 0..<50 {
            let value = try await Deadline.run(.seconds(1), timerOn: loop) { attempt }
            #expect(value == attempt)
        }
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            _ = try await Deadline.run(.seconds(1), timerOn: loop) { () async throws -> Int in throw Refused() }
        }
        // Past every timer's due time: a second resume of a continuation would have trapped.
        await loop.advanceTime(by: .seconds(2))
        for _ in 0..<100 { await Task.yield() }
        await loop.shutdownGracefully()
    }
}
