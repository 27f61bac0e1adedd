import Testing

/// Runs a suite's tests, and every task they start, on `BlockingWorkExecutor`: for suites whose
/// tests block a thread (child processes, raw sockets), so they never starve the rest. A few such
/// tests run at once, not all: each starts servers, and their time limits assume a CPU to run on.
public struct BlockingWorkTrait: SuiteTrait, TestTrait, TestScoping {
    private static let permits = TestPermits(limit: 3)

    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        // Suites are scoped too; only a test (or each of its cases) needs its own preference.
        guard !test.isSuite else { return try await function() }
        await Self.permits.acquire()
        do {
            try await withTaskExecutorPreference(BlockingWorkExecutor.shared) { try await function() }
            await Self.permits.release()
        } catch {
            await Self.permits.release()
            throw error
        }
    }
}

extension Trait where Self == BlockingWorkTrait {
    /// The tests block threads: run them on threads of their own.
    public static var blocksThreads: Self { BlockingWorkTrait() }
}
