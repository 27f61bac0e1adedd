import Foundation
import Glibc

// A constant-rate load for scripts/bench-http: PUTs one pre-minted AUTHORIZE body per request at a
// fixed rate over keep-alive connections and prints latency percentiles.
//
// Unlike closed-loop wrk, which waits for an answer before sending again and so hides queueing
// (coordinated omission), request i is due at start + i / RATE and its latency counts from then,
// not from when a connection was free to send it. One thread and poll(2), no interpreter: the
// generator adds microseconds, not the milliseconds an asyncio one adds at a thousand requests a
// second. It sleeps in select(2) until just before the next due time (microsecond timeouts, timer
// slack asked down to a microsecond) and polls without sleeping only for the last 50 us. It used
// to poll without sleeping whenever the next request was due within 1.5 ms, which at a thousand
// requests a second is always: the client's core was never idle, so the machine's periodic work
// (kernel threads, other processes) ran on the server's core or stopped the client for
// milliseconds, and a request sent late counts from its due time (scripts/bench-stages placed the
// slowest 1% at such moments, once a second).
//
// Usage: http-bench-rate URL BODIES AUTHORIZATION RATE SECONDS [ORDER_PREFIX] [CONNECTIONS]
// RATE_TRACE=FILE writes each answer's due time (ms after the start) and latency (ms), one per line,
// then the request's index (its order id's number) and its due and answer times (CLOCK_MONOTONIC ns,
// to join with the server's log.stageTrace: scripts/bench-stages).
// Last line: `constant_rate: rate=R sent=N ok=M p50_ms=A p99_ms=B p999_ms=C`.

struct Options {
    var host: String
    var port: UInt16
    var bodies: [[UInt8]]
    var authorization: String
    var rate: Double
    var seconds: Double
    var orderPrefix: String
    var connections: Int

    init?(_ arguments: [String]) {
        guard arguments.count >= 6,
            let url = Self.hostAndPort(arguments[1]),
            let bodies = Self.lines(of: arguments[2]),
            let rate = Double(arguments[4]), rate > 0,
            let seconds = Double(arguments[5]), seconds > 0
        else { return nil }
        (host, port) = url
        self.bodies = bodies
        authorization = arguments[3]
        self.rate = rate
        self.seconds = seconds
        orderPrefix = arguments.count > 6 ? arguments[6] : "rate-"
        connections = arguments.count > 7 ? Int(arguments[7]) ?? 64 : 64
    }

    /// `http://HOST:PORT` (an IPv4 address: the bench's server listens on 127.0.0.1).
    private static func hostAndPort(_ url: String) -> (String, UInt16)? {
        guard url.hasPrefix("http://") else { return nil }
        let authority = url.dropFirst("http://".count).split(separator: "/").first ?? ""
        let parts = authority.split(separator: ":")
        guard parts.count == 2, let port = UInt16(parts[1]) else { return nil }
        return (String(parts[0]), port)
    }

    private static func lines(of path: String) -> [[UInt8]]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes.split(separator: UInt8(ascii: "\n")).map(Array.init)
    }
}

func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

func fail(_ message: String) -> Never {
    printError("http-bench-rate: \(message)")
    exit(1)
}

/// One keep-alive connection with at most one request in flight.
final class Connection {
    let descriptor: Int32
    private var outgoing: [UInt8] = []
    private var written = 0
    private var incoming: [UInt8] = []
    /// When the request in flight was due; nil when the connection is idle.
    private(set) var due: UInt64?
    /// The index of the request in flight.
    private(set) var index = 0

    init(host: String, port: UInt16) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { fail("socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { fail("not an IPv4 address: \(host)") }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { fail("cannot connect to \(host):\(port): \(String(cString: strerror(errno)))") }
        var on: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    var wantsToWrite: Bool { written < outgoing.count }

    func send(_ request: [UInt8], index: Int, due: UInt64) {
        outgoing = request
        written = 0
        self.index = index
        self.due = due
        flush()
    }

    func flush() {
        while written < outgoing.count {
            let count = outgoing[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { return }
                fail("write: \(errno)")
            }
            written += count
        }
    }

    /// Reads what has arrived; returns the status of a response that is now complete.
    func receive() -> Int? {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                incoming.append(contentsOf: chunk[0..<count])
                continue
            }
            if count == 0 { fail("the server closed a connection") }
            if errno == EAGAIN || errno == EINTR { break }
            fail("read: \(errno)")
        }
        guard let (status, length) = Self.completeResponse(in: incoming) else { return nil }
        incoming.removeFirst(length)
        due = nil
        return status
    }

    /// The status and total length of the response at the start of `bytes`, once all of it is there.
    private static func completeResponse(in bytes: [UInt8]) -> (status: Int, length: Int)? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let headEnd = bytes.indices.dropLast(3).first(where: { bytes[$0..<$0 + 4].elementsEqual(separator) })
        else { return nil }
        let head = String(decoding: bytes[0..<headEnd], as: UTF8.self).lowercased()
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.count >= 12, let status = Int(statusLine.dropFirst(9).prefix(3))
        else { fail("not an HTTP response: \(head.prefix(40))") }
        let bodyLength =
            lines.lazy.compactMap { line -> Int? in
                guard line.hasPrefix("content-length:") else { return nil }
                return Int(line.dropFirst("content-length:".count).filter { $0 != " " })
            }.first ?? 0
        let length = headEnd + 4 + bodyLength
        return bytes.count >= length ? (status, length) : nil
    }
}

guard let options = Options(CommandLine.arguments) else {
    printError("usage: http-bench-rate URL BODIES AUTHORIZATION RATE SECONDS [ORDER_PREFIX] [CONNECTIONS]")
    exit(2)
}

func request(_ index: Int) -> [UInt8] {
    let body = options.bodies[index]
    let head =
        "PUT /api/rest/version/100/merchant/TESTMERCHANT/order/\(options.orderPrefix)\(index)/transaction/1 HTTP/1.1\r\n"
        + "Host: \(options.host)\r\nAuthorization: \(options.authorization)\r\n"
        + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
    return Array(head.utf8) + body
}

let count = min(options.bodies.count, Int(options.rate * options.seconds))
let requests = (0..<count).map(request)  // built before the clock starts
let connections = (0..<options.connections).map { _ in Connection(host: options.host, port: options.port) }
var idle = Array(connections.indices.reversed())
var latencies: [Double] = []
latencies.reserveCapacity(count)
/// (due time after the start, latency) of each answer, written to $RATE_TRACE when it is set, so a
/// tail can be placed in time: periodic stalls and a backlog after one look different.
var trace: [(due: Double, latency: Double, index: Int, dueNanoseconds: UInt64, answeredNanoseconds: UInt64)] = []
var failures: [Int] = []
let interval = 1e9 / options.rate
let start = monotonicNanoseconds() + 200_000_000
func dueTime(_ index: Int) -> UInt64 { start + UInt64(Double(index) * interval) }
var next = 0
var answered = 0
let giveUp = dueTime(count) + 30_000_000_000

/// The connections' descriptors as select(2) takes them, made once: select's timeout is in
/// microseconds where poll's is in milliseconds (ppoll is not in Swift's Glibc).
struct ReadableSet {
    private let set: fd_set
    private let count: Int32

    init(_ descriptors: [Int32]) {
        var set = fd_set()
        withUnsafeMutableBytes(of: &set) { bits in
            for descriptor in descriptors {
                precondition(descriptor < FD_SETSIZE, "descriptor \(descriptor) is past select's set")
                bits[Int(descriptor) / 8] |= UInt8(1 << (Int(descriptor) % 8))
            }
        }
        self.set = set
        count = (descriptors.max() ?? 0) + 1
    }

    /// Sleeps until one of the descriptors is readable or `nanoseconds` have passed.
    func sleep(nanoseconds: Int64) {
        var readable = set
        var timeout = timeval(tv_sec: Int(nanoseconds / 1_000_000_000), tv_usec: Int(nanoseconds % 1_000_000_000 / 1000))
        guard select(count, &readable, nil, nil, &timeout) >= 0 || errno == EINTR else { fail("select: \(errno)") }
    }
}

/// How long before a due time the client stops sleeping: a sleep's wake-up lateness here.
let wakeUpLead: Int64 = 50_000
// A sleeping thread's timers may fire up to its timer slack late (50 us by default); one
// microsecond keeps the wake-ups where they are asked. Best effort: a kernel without the file
// leaves the default, which the lead above covers.
if let slack = fopen("/proc/self/timerslack_ns", "w") {
    fputs("1000", slack)
    fclose(slack)
}
var polled = connections.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
let answers = ReadableSet(connections.map(\.descriptor))
while answered < count {
    var now = monotonicNanoseconds()
    guard now < giveUp else { fail("\(count - answered) requests unanswered 30 s after the last was due") }
    while next < count, dueTime(next) <= now, let free = idle.popLast() {
        connections[free].send(requests[next], index: next, due: dueTime(next))
        next += 1
    }
    // Sleep until 50 us before the next due time (a wake-up can be that late) or an answer,
    // whichever comes first; with nothing due (or no connection free), until an answer comes.
    // A request still being written (the socket's buffer was full) is polled for without sleeping.
    var wait: Int64 = 100_000_000
    if next < count, !idle.isEmpty { wait = max(0, Int64(dueTime(next)) - Int64(now) - wakeUpLead) }
    var writing = false
    for index in connections.indices {
        writing = writing || connections[index].wantsToWrite
        polled[index].events = Int16(POLLIN) | (connections[index].wantsToWrite ? Int16(POLLOUT) : 0)
        polled[index].revents = 0
    }
    if wait > 0, !writing { answers.sleep(nanoseconds: wait) }
    guard poll(&polled, nfds_t(polled.count), 0) >= 0 || errno == EINTR else { fail("poll: \(errno)") }
    now = monotonicNanoseconds()
    for index in connections.indices where polled[index].revents != 0 {
        let connection = connections[index]
        if polled[index].revents & Int16(POLLOUT) != 0 { connection.flush() }
        guard polled[index].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, let due = connection.due else { continue }
        guard let status = connection.receive() else { continue }
        latencies.append(Double(now - due) / 1e6)
        trace.append((Double(Int64(due) - Int64(start)) / 1e6, latencies[latencies.count - 1], connection.index, due, now))
        if status != 201 { failures.append(status) }
        answered += 1
        idle.append(index)
    }
}

if let path = ProcessInfo.processInfo.environment["RATE_TRACE"] {
    let lines = trace.map { String(format: "%.3f %.3f %d %llu %llu\n", $0.due, $0.latency, $0.index, $0.dueNanoseconds, $0.answeredNanoseconds) }
        .joined()
    FileManager.default.createFile(atPath: path, contents: Data(lines.utf8))
}
latencies.sort()
func percentile(_ p: Double, of sorted: [Double]) -> String {
    guard !sorted.isEmpty else { return "nan" }  // no bodies, so nothing was sent
    return String(format: "%.2f", sorted[min(sorted.count - 1, Int(p * Double(sorted.count)))])
}
if let first = failures.first {
    printError("constant_rate: \(failures.count) non-201 answers, first: \(first)")
}
print(
    "constant_rate: rate=\(Int(options.rate)) sent=\(count) ok=\(count - failures.count)"
        + " p50_ms=\(percentile(0.5, of: latencies))"
        + " p99_ms=\(percentile(0.99, of: latencies)) p999_ms=\(percentile(0.999, of: latencies))"
)
