import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A PgBouncer (Debian's, 1.18) in front of a ``PostgresTestServer``, on a free loopback port,
/// pooling `poolSize` server connections per database and user: few, so that the clients'
/// transactions really do move between server connections. It runs as the server user (it
/// refuses root) and is stopped with ``stop()``.
public final class PgBouncerTestServer: Sendable {
    public let port: Int
    private let directory: URL

    /// - Parameter ignoredStartupParameters: what the bouncer accepts and drops at connection start
    ///   (it refuses any parameter it does not track, `statement_timeout` among them).
    public init(for server: PostgresTestServer, poolMode: String, poolSize: Int = 2, ignoredStartupParameters: [String] = []) throws {
        let executable = URL(fileURLWithPath: "/usr/sbin/pgbouncer")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw PostgresTestServer.Failure(description: "PgBouncer is missing (no /usr/sbin/pgbouncer): apt-get install pgbouncer")
        }
        port = try PostgresTestServer.freePort()
        directory = server.directory.appendingPathComponent("pgbouncer-\(port)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Trust, like the server behind it; the user must still be listed in the auth file.
        try #""\#(PostgresTestServer.user)" """#.write(to: directory.appendingPathComponent("users.txt"), atomically: true, encoding: .utf8)
        let settings = """
            [databases]
            * = host=127.0.0.1 port=\(server.port)
            [pgbouncer]
            listen_addr = 127.0.0.1
            listen_port = \(port)
            unix_socket_dir =
            auth_type = trust
            auth_file = \(directory.path)/users.txt
            pool_mode = \(poolMode)
            default_pool_size = \(poolSize)
            max_client_conn = 500
            ignore_startup_parameters = \(ignoredStartupParameters.joined(separator: ","))
            pidfile = \(directory.path)/pgbouncer.pid
            logfile = \(directory.path)/pgbouncer.log
            """
        let configuration = directory.appendingPathComponent("pgbouncer.ini")
        try settings.write(to: configuration, atomically: true, encoding: .utf8)
        if getuid() == 0 {
            for path in [directory.path] + ["users.txt", "pgbouncer.ini"].map({ directory.appendingPathComponent($0).path }) {
                try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: path)
            }
        }
        try PostgresTestServer.run(executable, ["-d", configuration.path], asServerUser: true)
        try waitUntilListening()
    }

    /// postgres://gateway@127.0.0.1:PORT/DATABASE, through the bouncer.
    public func url(database: String) -> String {
        "postgres://\(PostgresTestServer.user)@127.0.0.1:\(port)/\(database)"
    }

    /// What the bouncer logged: its refusals and errors, for a failing test's message.
    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("pgbouncer.log"), encoding: .utf8)) ?? ""
    }

    public func stop() {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("pgbouncer.pid"), encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return }
        // SIGKILL: started through runuser from the test process, it inherits a signal mask that
        // blocks SIGTERM and SIGINT, and PgBouncer does not unblock them. It keeps no data.
        kill(pid, SIGKILL)
    }

    /// `-d` returns once it has forked; the child binds a moment later.
    private func waitUntilListening() throws {
        for _ in 0..<100 {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            close(descriptor)
            if connected { return }
            usleep(50_000)
        }
        throw PostgresTestServer.Failure(description: "PgBouncer did not listen on port \(port): \(log)")
    }
}
