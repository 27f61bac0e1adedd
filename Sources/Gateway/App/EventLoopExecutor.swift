import Foundation
import NIOCore
import NIOPosix

/// Swift concurrency's jobs run on the server's event loop threads, as the generic executor.
///
/// Hummingbird reads a request on an event loop and hands it to a task; by default that task
/// runs on Swift's own thread pool, and its response goes back to the event loop: two thread
/// switches per request, each a futex wake and a context switch. With the event loops as the
/// global executor the task runs where its bytes arrived. Nothing the gateway runs in a task
/// blocks a thread: SQLite works on its own queues, and PostgreSQL is NIO already.
///
/// NIO offers this hook itself, but runs each job isolated to the event loop's serial executor.
/// Every nonisolated async function runs on the generic executor, so each call into one, and each
/// return from one, then counted as a change of executor: the task was suspended and queued on
/// the same loop again, 76 times per card AUTHORIZE (gdb, 3 with this hook). Run as the generic
/// executor, those hops cost a comparison.
enum EventLoopExecutor {
    /// Installed at most once per process, before the server starts.
    static let installed: Bool = {
        // One event loop per CPU the process may run on. NIO counts the machine's CPUs (less a
        // cgroup quota); pinned to fewer, extra loops only take turns on the same CPUs, and a
        // request waits for the scheduler's time slice in between.
        // NIO's own NIO_SINGLETON_GROUP_LOOP_COUNT, when an operator sets it, wins.
        if ProcessInfo.processInfo.environment["NIO_SINGLETON_GROUP_LOOP_COUNT"] == nil, let allowed = allowedCPUCount() {
            NIOSingletons.groupLoopCountSuggestion = allowed
        }
        return installGlobalHook()
    }()

    /// The runtime's `swift_task_enqueueGlobal_hook`: called with each job meant for the global
    /// concurrent executor, and the runtime's own enqueue (unused).
    private typealias EnqueueGlobalHook = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void

    /// The generic executor's reference (identity and implementation both zero), as the runtime's
    /// own thread pool runs global jobs: `UnownedSerialExecutor` is frozen as those two words.
    private static let generic = unsafeBitCast((0, 0) as (Int, Int), to: UnownedSerialExecutor.self)

    private static func installGlobalHook() -> Bool {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook") else { return false }
        let slot = symbol.assumingMemoryBound(to: UnsafeRawPointer?.self)
        // Someone else's hook stays: two cannot both decide where jobs run.
        guard slot.pointee == nil else { return false }
        // A thin function is one code pointer: the runtime calls it as one.
        slot.pointee = withUnsafeBytes(of: enqueueOnEventLoop) { $0.load(as: UnsafeRawPointer.self) }
        return true
    }

    private static let enqueueOnEventLoop: EnqueueGlobalHook = { job, _ in
        // `any()` is the current loop when called on one, so a task stays on its loop.
        MultiThreadedEventLoopGroup.singleton.any().execute { job.runSynchronously(on: generic) }
    }

    /// The CPUs this process's affinity mask allows (taskset, a CPU manager's pinning), from
    /// `Cpus_allowed` in /proc/self/status; nil where there is no such file.
    private static func allowedCPUCount() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") })
        else { return nil }
        let count = line.dropFirst("Cpus_allowed:".count).reduce(0) { count, character in
            count + (character.hexDigitValue.map { $0.nonzeroBitCount } ?? 0)
        }
        return count > 0 ? min(count, System.coreCount) : nil
    }
}
