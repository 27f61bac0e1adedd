import BlockingWork
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `scripts/notification-receiver` as a process of its own on a real socket: what a merchant
/// runs, checking the secret in constant time. `arrivals` reads its log of every request.
final class NotificationReceiver {
    struct Arrival: Decodable {
        var id: String
        var path: String
        var attempt: String?
        var secretMatches: Bool
        var isRepeat: Bool
        var contentType: String?
        var body: String
        var receivedAt: Double

        enum CodingKeys: String, CodingKey {
            case id, path, attempt, secretMatches, contentType, body, receivedAt
            case isRepeat = "repeat"
        }
    }

    let process: ChildProcess
    let port: Int
    let log: URL
    /// Where this receiver's own URL starts: a receiver on a free port may get one that an earlier
    /// test's gateway still retries notifications to, and those must not count as arrivals here
    /// (their ids overlap this test's). Empty on a port the test chose, whose URL it wrote itself.
    private let pathPrefix: String

    /// Starts the receiver on `port` (0: a free one) and waits until it accepts connections.
    /// Its output is not read: a blocking read of a pipe can be interrupted by the signals child
    /// processes send, which Foundation's FileHandle turns into a crash.
    init(port: Int = 0, secret: String, log: URL, delayMilliseconds: Int = 0) async throws {
        pathPrefix = port == 0 ? "/r-\(UUID().uuidString.prefix(8))" : ""
        let port = port == 0 ? try Self.unusedPort() : port
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "scripts/notification-receiver", "--port", "\(port)", "--secret", secret, "--log", log.path,
            "--delay-ms", "\(delayMilliseconds)",
        ]
        process.currentDirectoryURL = ServeCommandTests.packageRoot
        process.standardOutput = FileHandle.nullDevice
        try await Self.start(process, listeningOn: port)
        self.process = process
        self.port = port
        self.log = log
    }

    var url: String { "http://127.0.0.1:\(port)\(pathPrefix)" }

    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    var arrivals: [Arrival] {
        guard let data = try? Data(contentsOf: log) else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).compactMap { line -> Arrival? in
            guard var arrival = try? JSONDecoder().decode(Arrival.self, from: Data(line)), arrival.path.hasPrefix(pathPrefix) else {
                return nil
            }
            arrival.path.removeFirst(pathPrefix.count)
            return arrival
        }
    }

    /// Waits (bounded) until `count` distinct notification ids have arrived.
    func waitForDistinct(_ count: Int, timeout: Duration = .seconds(60)) async throws -> [Arrival] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let seen = arrivals
            if Set(seen.map(\.id)).count >= count { return seen }
            try await Task.sleep(for: .milliseconds(50))
        }
        return arrivals
    }

    /// Runs a helper process and waits (20 s at most) until it accepts connections on `port`.
    static func start(_ process: ChildProcess, listeningOn port: Int) async throws {
        try process.run()
        let deadline = ContinuousClock.now + .seconds(20)
        while (try? RawConnection(port: port)) == nil {
            guard ContinuousClock.now < deadline, process.isRunning else {
                process.terminate()
                throw CocoaError(.fileReadUnknown)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// A loopback port nothing listens on now (bound, read, and released).
    static func unusedPort() throws -> Int {
        let reserved = try ReservedPort()
        defer { reserved.release() }
        return reserved.port
    }
}

/// A loopback port held bound but not listening until `release()`: connections to it are refused,
/// and no other test can take it meanwhile. For a test that needs a refused address first and a
/// receiver there later: with `unusedPort()` alone, another test's server could take the port in
/// between, and the "refused" notifications went to it.
final class ReservedPort {
    let port: Int
    private var descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw CocoaError(.fileReadUnknown)
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}

extension RunningGateway {
    /// One figure from `/metrics`: the sample named `prefix`, labels included (`name{cause="x"}`).
    func metric(_ prefix: String) -> Double? {
        guard let connection = try? RawConnection(port: port) else { return nil }
        connection.send("GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        let text = connection.receive(timeout: .seconds(5)).text
        return text.split(separator: "\n").first { $0.hasPrefix(prefix + " ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// Waits (bounded) until `prefix`'s figure reaches `value`.
    func waitForMetric(_ prefix: String, atLeast value: Double, timeout: Duration = .seconds(30)) async throws -> Double? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let seen = metric(prefix), seen >= value { return seen }
            try await Task.sleep(for: .milliseconds(50))
        }
        return metric(prefix)
    }
}
