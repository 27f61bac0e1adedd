import NIOCore
import NIOPosix

/// Swift concurrency's jobs run on the server's event loop threads (SwiftNIO's supported hook).
///
/// Hummingbird reads a request on an event loop and hands it to a task; by default that task
/// runs on Swift's own thread pool, and its response goes back to the event loop: two thread
/// switches per request, each a futex wake and a context switch. Measured with
/// `scripts/bench-http`, they cost about a quarter of a plain-card AUTHORIZE. With the event
/// loops as the global executor the task runs where its bytes arrived. Nothing the gateway runs
/// in a task blocks a thread: SQLite works on its own queues, and PostgreSQL is NIO already.
enum EventLoopExecutor {
    /// Installed at most once per process (NIO traps on a second try), before the server starts.
    static let installed: Bool = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
}
