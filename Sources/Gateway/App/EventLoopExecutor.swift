import Foundation
import NIOCore
import NIOPosix

/// Swift concurrency's jobs run on the server's event loop threads, as the global executor.
///
/// Hummingbird reads a request on an event loop and hands it to a task; by default that task
/// runs on Swift's own thread pool, and its response goes back to the event loop: two thread
/// switches per request, each a futex wake and a context switch. With the event loops as the
/// global executor the task runs where its bytes arrived. Nothing the gateway runs in a task
/// blocks a thread: SQLite works on its own queues, and PostgreSQL is NIO already.
///
/// Installed through SwiftNIO's own API, which owns the runtime hook and keeps it in step with
/// the Swift versions it supports; the gateway no longer writes into the runtime itself.
///
/// NIO runs each job isolated to the loop's serial executor, so every entry into a nonisolated
/// async function queues the task on the same loop again: 21 `swift_task_switch`es per GET
/// /information, 52 per card AUTHORIZE (uprobes). A hook running jobs as the generic executor
/// cut that to one or two jobs a request but did not lower the server's CPU per request
/// (scripts/bench-cpu-per-request, alternating: card 134-150 us with NIO's, 151-200 us with it).
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
        return NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }()

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
