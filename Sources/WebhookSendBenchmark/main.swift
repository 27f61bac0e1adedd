import AsyncHTTPClient
import Foundation
import NIOCore

// What one webhook's HTTP send costs on its own, for scripts/bench-webhooks: POSTs a notification
// body to a receiver through async-http-client, configured and used as the gateway's delivery loop
// uses it (same headers, `CONCURRENCY` in flight), and prints this process's CPU time per POST.
// No store, no outbox, no payment: the floor under what a notification can cost the gateway, so
// webhook_ratio can be read against the best a send by this client allows on this machine.
//
// Usage: http-bench-webhook-send URL BODY_FILE SECRET [POSTS] [CONCURRENCY]
// (defaults 3000 and 16, the delivery loop's default concurrency). Three rounds; last line:
// `webhook_send: posts=N cpu_us_per_post=MEDIAN rounds=A,B,C`.

let arguments = CommandLine.arguments
guard arguments.count >= 4, let body = FileManager.default.contents(atPath: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: http-bench-webhook-send URL BODY_FILE SECRET [POSTS] [CONCURRENCY]\n".utf8))
    exit(64)
}
let url = arguments[1]
let secret = arguments[3]
let posts = arguments.count > 4 ? Int(arguments[4]) ?? 3000 : 3000
let concurrency = arguments.count > 5 ? Int(arguments[5]) ?? 16 : 16

/// User and system CPU time of this process so far, in microseconds.
func cpuMicroseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let seconds = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
    let micros = usage.ru_utime.tv_usec + usage.ru_stime.tv_usec
    return Double(seconds) * 1_000_000 + Double(micros)
}

// As NotificationDelivery configures its client.
var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: .seconds(10)))
configuration.decompression = .disabled
configuration.connectionPool.retryConnectionEstablishment = false
let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
let payload = ByteBuffer(bytes: body)

/// One POST with the delivery loop's headers; its answer read as the loop reads it.
func send(_ id: Int) async throws {
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "application/json")
    request.headers.add(name: "X-Notification-Secret", value: secret)
    request.headers.add(name: "X-Notification-Id", value: "\(id)")
    request.headers.add(name: "X-Notification-Attempt", value: "1")
    request.headers.add(name: "User-Agent", value: "applepay-gateway-notifications")
    request.body = .bytes(payload)
    let response = try await client.execute(request, timeout: .seconds(10))
    for try await _ in response.body {}
    guard (200..<300).contains(response.status.code) else { throw ReceiverRefused(status: response.status.code) }
}

struct ReceiverRefused: Error {
    let status: UInt
}

/// Sends `posts` notifications, `concurrency` in flight; the CPU per POST.
func sendRound(_ index: Int) async throws -> Double {
    let started = cpuMicroseconds()
    try await withThrowingTaskGroup(of: Void.self) { group in
        var next = 0
        func startNext() {
            let id = index * posts + next
            next += 1
            group.addTask { try await send(id) }
        }
        for _ in 0..<min(concurrency, posts) { startNext() }
        while try await group.next() != nil {
            if next < posts { startNext() }
        }
    }
    return (cpuMicroseconds() - started) / Double(posts)
}

do {
    _ = try await sendRound(-1)  // warm: connections open, code paths paged in
    var rounds: [Double] = []
    for index in 0..<3 { rounds.append(try await sendRound(index)) }
    let median = rounds.sorted()[1]
    let listed = rounds.map { String(format: "%.0f", $0) }.joined(separator: ",")
    print("webhook_send: posts=\(posts) cpu_us_per_post=\(String(format: "%.0f", median)) rounds=\(listed)")
    try await client.shutdown().get()
} catch {
    FileHandle.standardError.write(Data("http-bench-webhook-send: \(error)\n".utf8))
    exit(1)
}
