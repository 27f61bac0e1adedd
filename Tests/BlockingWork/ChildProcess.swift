import CSpawn
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A child process started with posix_spawn, with the part of Foundation's `Process` the tests
/// use. Foundation's `Process.run()` on Linux copies a whole 256-byte `d_name` out of each entry
/// it reads from /proc/self/fd; with more than about 1,300 descriptors open (the whole suite in
/// parallel opens up to 2,000) the copy of the last entry runs off the end of the heap, and the
/// test process crashed in that memmove twice. Here the child gets its standard descriptors and
/// nothing else (closefrom), in a process group of its own, with no signal blocked.
public final class ChildProcess: @unchecked Sendable {
    public enum TerminationReason: Sendable { case exit, uncaughtSignal }

    public var executableURL: URL?
    public var arguments: [String] = []
    /// nil: this process's environment.
    public var environment: [String: String]?
    public var currentDirectoryURL: URL?
    /// A `Pipe`, a `FileHandle`, or nil for this process's own.
    public var standardInput: Any?
    public var standardOutput: Any?
    public var standardError: Any?

    public private(set) var processIdentifier: pid_t = 0
    /// The wait status, once the child has exited.
    private let status = Mutex<Int32?>(nil)
    private let exited = DispatchSemaphore(value: 0)

    public init() {}

    public func run() throws {
        guard let executable = executableURL?.path else { throw SpawnFailure(description: "no executable") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var closeAfterSpawn: [FileHandle] = []
        for (target, stream, childReads) in [(0, standardInput, true), (1, standardOutput, false), (2, standardError, false)] {
            let handle: FileHandle
            switch stream {
            case let pipe as Pipe:
                handle = childReads ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                if !closeAfterSpawn.contains(where: { $0 === handle }) { closeAfterSpawn.append(handle) }
            case let file as FileHandle: handle = file
            default: continue
            }
            posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, Int32(target))
        }
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        if let directory = currentDirectoryURL?.path { posix_spawn_file_actions_addchdir_np(&actions, directory) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        let environment = environment ?? ProcessInfo.processInfo.environment
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw SpawnFailure(description: "cannot start \(executable): \(String(cString: strerror(result)))")
        }
        processIdentifier = pid
        for handle in closeAfterSpawn { try? handle.close() }
        // One thread per child, blocked in waitpid, reaps it: no zombies, and no polling.
        Thread { [self, pid] in
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
            status.withLock { $0 = raw }
            exited.signal()
        }.start()
    }

    public var isRunning: Bool { processIdentifier != 0 && status.withLock { $0 } == nil }

    public func waitUntilExit() {
        guard processIdentifier != 0, !status.withLock({ $0 != nil }) else { return }
        exited.wait()
        exited.signal()  // for any other waiter
    }

    public func terminate() { send(SIGTERM) }

    public func interrupt() { send(SIGINT) }

    /// Nothing once it has been reaped: its pid may belong to another process by then.
    private func send(_ signal: Int32) {
        guard isRunning else { return }
        kill(processIdentifier, signal)
    }

    /// The exit code, or the signal that ended it (as Foundation reports it).
    public var terminationStatus: Int32 {
        let raw = status.withLock { $0 } ?? 0
        return raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
    }

    public var terminationReason: TerminationReason {
        (status.withLock { $0 } ?? 0) & 0x7f == 0 ? .exit : .uncaughtSignal
    }
}

public struct SpawnFailure: Error, CustomStringConvertible {
    public let description: String
}
