import BlockingWork
import Foundation
import Testing

@testable import Gateway
@testable import GatewayNotifications

/// Issue 62: a receiver that refuses the secret gets its own words in the log, not only `http_4xx`.
@Suite("Notification refused by the receiver", .blocksThreads)
struct NotificationRefusalTests {
    @Test("401 and 403 say the receiver refused the secret; another status says which it was", arguments: [401, 403, 500])
    func refusal(status: Int) async throws {
        let receiver = try CountingListener(response: "HTTP/1.1 \(status) Nope\r\nContent-Length: 0\r\n\r\n")
        defer { receiver.stop() }
        let sender = NotificationRebindingTests.sender(production: false, resolver: SystemHostResolver(), patient: true)
        let outcome = await NotificationRebindingTests.post(sender, "http://127.0.0.1:\(receiver.port)/hook")
        await sender.shutdown()
        guard case .failed(let cause, _, let reason) = outcome else {
            Issue.record("a \(status) counted as delivered")
            return
        }
        #expect(cause == "http_\(status / 100)xx", "the metric's label stays a class")
        if status == 500 {
            #expect(reason == "the receiver answered HTTP 500")
        } else {
            #expect(reason?.hasPrefix("the receiver refused the secret (HTTP \(status))") == true, "\(reason ?? "")")
            #expect(reason?.contains("gateway check-config") == true)
        }
    }
}
