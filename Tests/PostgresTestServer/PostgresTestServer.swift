import BlockingWork
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL server for tests: `initdb` and `pg_ctl` in a temporary directory, on a
/// free loopback port, trust authentication for the `gateway` user. Tests that need PostgreSQL
/// start one (or share ``shared()``), so plain `swift test` needs no setup beyond Debian's
/// `postgresql` package; without it they fail with a message saying so, never pass by skipping.
/// PostgreSQL refuses to run as root, so under root the server runs as the `postgres` user.
public final class PostgresTestServer: Sendable {
    public static let user = "gateway"

    /// The store deadline of tests that assert what is stored, not how fast: a full parallel run
    /// on two cores has held the test process's cooperative threads, which a store's connection
    /// work runs on, for over 20 s. Outage tests set their own, short, deadlines.
    public static let generousStoreTimeout: Duration = .seconds(60)

    public let port: Int
    public let directory: URL
    private let binaries: URL

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// One server for the whole test run (stopped when the process exits); tests take their own
    /// database on it with ``createDatabase()``. The first call runs initdb and pg_ctl for
    /// seconds, and the calls made meanwhile wait for it: on a thread of their own, not on one of
    /// the cooperative pool's two, where they stalled every other test in the process.
    public static func shared() async throws -> PostgresTestServer {
        try await onAThreadOfItsOwn { try sharedServer.get() }
    }

    /// A new server, initialized and started on a thread of its own (``init()`` blocks its caller's
    /// thread for seconds).
    public static func started() async throws -> PostgresTestServer {
        try await onAThreadOfItsOwn { try PostgresTestServer() }
    }

    private static let sharedServer: Result<PostgresTestServer, any Error> = Result {
        let server = try PostgresTestServer()
        sharedDirectory = server.directory.path
        atexit { PostgresTestServer.stopShared() }
        return server
    }

    nonisolated(unsafe) private static var sharedDirectory: String?

    private static func stopShared() {
        guard let directory = sharedDirectory, let binaries = try? PostgresTestServer.locateBinaries() else { return }
        _ = try? run(
            binaries.appendingPathComponent("pg_ctl"),
            ["-D", directory + "/data", "-m", "immediate", "-w", "stop"],
            asServerUser: true
        )
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Initializes and starts a new server.
    public init() throws {
        binaries = try Self.locateBinaries()
        directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if getuid() == 0 {
            try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: directory.path)
        }
        port = try Self.freePort()
        try Self.run(
            binaries.appendingPathComponent("initdb"),
            ["-D", dataDirectory.path, "-U", Self.user, "--auth=trust", "-E", "UTF8", "--no-sync"],
            asServerUser: true
        )
        try start()
    }

    var dataDirectory: URL { directory.appendingPathComponent("data") }

    /// postgres://gateway@127.0.0.1:PORT/DATABASE
    public func url(database: String) -> String {
        "postgres://\(Self.user)@127.0.0.1:\(port)/\(database)"
    }

    /// A new, empty database; returns its URL.
    public func createDatabase() async throws -> String {
        url(database: try await createNamedDatabase())
    }

    /// A new, empty database; returns its name (for ``psql(_:database:)`` and ``url(database:)``).
    public func createNamedDatabase() async throws -> String {
        let name = "test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16))"
        try await psql("CREATE DATABASE \(name)", database: "postgres")
        return name
    }

    /// Runs SQL with psql, returning its unaligned output. psql runs on a thread of its own.
    @discardableResult
    public func psql(_ sql: String, database: String) async throws -> String {
        try await onAThreadOfItsOwn { try self.psqlNow(sql, database: database) }
    }

    /// ``psql(_:database:)`` on the caller's thread, for the server's own blocking helpers.
    @discardableResult
    func psqlNow(_ sql: String, database: String) throws -> String {
        try Self.run(
            binaries.appendingPathComponent("psql"),
            ["-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, "-d", database, "-v", "ON_ERROR_STOP=1", "-Atqc", sql],
            asServerUser: false
        )
    }

    /// The database as `pg_dump` writes it (plain SQL, every row), from a thread of its own.
    public func dump(database: String) async throws -> String {
        try await onAThreadOfItsOwn { try self.dumpNow(database: database) }
    }

    private func dumpNow(database: String) throws -> String {
        try Self.run(
            binaries.appendingPathComponent("pg_dump"),
            ["-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, "-d", database],
            asServerUser: false
        )
    }

    /// Runs an SQL file (a `pg_dump` of an earlier release, say) with psql, from a thread of its own.
    public func restore(file: String, database: String) async throws {
        try await onAThreadOfItsOwn { try self.restoreNow(file: file, database: database) }
    }

    private func restoreNow(file: String, database: String) throws {
        try Self.run(
            binaries.appendingPathComponent("psql"),
            ["-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, "-d", database, "-v", "ON_ERROR_STOP=1", "-q", "-f", file],
            asServerUser: false
        )
    }

    /// Starts psql on SQL that runs for a while; the caller waits for it.
    public func psqlInBackground(_ sql: String, database: String) throws -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = binaries.appendingPathComponent("psql")
        process.arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, "-d", database, "-qc", sql]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// A copy of `primary` (pg_basebackup) that starts in recovery and stays there, on the
    /// primary's port, not started: stop the primary and start this, and whoever connected to the
    /// primary reaches a standby, as when a proxy still routes to a demoted primary.
    public init(standbyTakingOverFrom primary: PostgresTestServer) throws {
        binaries = primary.binaries
        directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if getuid() == 0 {
            try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: directory.path)
        }
        port = primary.port
        try Self.run(
            binaries.appendingPathComponent("pg_basebackup"),
            ["-h", "127.0.0.1", "-p", "\(primary.port)", "-U", Self.user, "-D", dataDirectory.path, "--no-sync", "--checkpoint=fast"],
            asServerUser: true
        )
        // No primary_conninfo: a standby with nothing to stream from, in recovery for good.
        try Self.run(URL(fileURLWithPath: "/usr/bin/touch"), [dataDirectory.appendingPathComponent("standby.signal").path], asServerUser: true)
    }

    /// Starts the server (again), waiting until it accepts connections.
    public func start() throws {
        // Fast enough for tests: no fsync (the tests kill gateways, not the database's machine).
        let options = [
            "-c listen_addresses=127.0.0.1", "-p \(port)", "-k \(directory.path)", "-c fsync=off",
            "-c full_page_writes=off", "-c max_connections=400",
        ].joined(separator: " ")
        try Self.run(
            binaries.appendingPathComponent("pg_ctl"),
            ["-D", dataDirectory.path, "-l", directory.appendingPathComponent("server.log").path, "-o", options, "-w", "-t", "60", "start"],
            asServerUser: true
        )
    }

    /// Stops the server (fast shutdown: open connections are cut, as on a database restart).
    public func stop() throws {
        try Self.run(
            binaries.appendingPathComponent("pg_ctl"),
            ["-D", dataDirectory.path, "-m", "fast", "-w", "stop"],
            asServerUser: true
        )
    }

    /// Freezes the server and every backend (SIGSTOP): connections stay open and answer nothing,
    /// as a database host that hangs or drops off the network does. ``thaw()`` undoes it.
    public func freeze() throws { try signalServer(SIGSTOP) }

    public func thaw() throws { try signalServer(SIGCONT) }

    /// Freezes (SIGSTOP) the backends serving the gateway's connections to `database`, and only
    /// them: those connections answer nothing, while new ones are served as usual. Returns the
    /// backends, for ``thaw(backends:)``.
    public func freezeGatewayBackends(database: String) throws -> [Int32] {
        let listed = try psqlNow(
            "SELECT pid FROM pg_stat_activity WHERE datname = '\(database)' AND application_name = 'applepay-gateway'",
            database: "postgres"
        )
        let backends = listed.split(separator: "\n").compactMap { Int32($0.trimmingCharacters(in: .whitespaces)) }
        try signal(backends, SIGSTOP)
        return backends
    }

    public func thaw(backends: [Int32]) throws { try signal(backends, SIGCONT) }

    /// A process gone since it was listed (a backend or worker that exited: ESRCH) is skipped:
    /// there is nothing left to stop or continue, and failing the test for it was a race.
    private func signal(_ processes: [Int32], _ signal: Int32) throws {
        for pid in processes where kill(pid, signal) != 0 {
            let error = errno
            if error == ESRCH { continue }
            throw Failure(description: "kill(\(pid), \(signal)) failed: errno \(error)")
        }
    }

    /// The postmaster (first line of its pid file), then its children, found by their parent in
    /// /proc/<pid>/stat (the field after the parenthesised command name).
    private func signalServer(_ signal: Int32) throws {
        let pidFile = try String(contentsOf: dataDirectory.appendingPathComponent("postmaster.pid"), encoding: .utf8)
        guard let postmaster = pidFile.split(separator: "\n").first.flatMap({ Int32($0) }) else {
            throw Failure(description: "no pid in postmaster.pid")
        }
        var processes = [postmaster]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let closing = stat.lastIndex(of: ")")
            else { continue }
            let fields = stat[stat.index(after: closing)...].split(separator: " ")
            if fields.count > 1, Int32(fields[1]) == postmaster { processes.append(pid) }
        }
        try self.signal(processes, signal)
    }

    /// Stops the server and deletes its files.
    public func destroy() {
        try? stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The newest installed server version's binaries.
    static func locateBinaries() throws -> URL {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        let found = versions.compactMap(Int.init).sorted().last.map {
            root.appendingPathComponent("\($0)/bin")
        }
        guard let found, FileManager.default.isExecutableFile(atPath: found.appendingPathComponent("initdb").path) else {
            throw Failure(
                description: "PostgreSQL server binaries are missing (no /usr/lib/postgresql/*/bin/initdb): "
                    + "apt-get install postgresql; the PostgreSQL store tests start their own server"
            )
        }
        return found
    }

    @discardableResult
    static func run(_ executable: URL, _ arguments: [String], asServerUser: Bool) throws -> String {
        var command = [executable.path] + arguments
        if asServerUser && getuid() == 0 { command = ["/usr/sbin/runuser", "-u", "postgres", "--"] + command }
        let outputFile = NSTemporaryDirectory() + "pgrun-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: outputFile) }
        let status = try spawnAndWait(command, output: outputFile)
        let text = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw Failure(description: "\(executable.lastPathComponent) failed (\(status)): \(text)")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The child gets only /dev/null and the output file (ChildProcess closes every other
    /// descriptor): the server `pg_ctl start` leaves running would otherwise inherit a pipe and
    /// keep whoever reads it waiting for the server's end.
    private static func spawnAndWait(_ command: [String], output: String) throws -> Int32 {
        guard FileManager.default.createFile(atPath: output, contents: nil),
            let outputFile = FileHandle(forWritingAtPath: output),
            let devNull = FileHandle(forReadingAtPath: "/dev/null")
        else { throw Failure(description: "cannot open \(output)") }
        defer {
            try? outputFile.close()
            try? devNull.close()
        }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(["LC_ALL": "C"]) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        process.standardInput = devNull
        process.standardOutput = outputFile
        process.standardError = outputFile
        try process.run()
        process.waitUntilExit()
        // Exited normally: the code; killed by a signal: 128 + the signal, as shells report it.
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }

    /// A loopback port nobody listens on right now.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
