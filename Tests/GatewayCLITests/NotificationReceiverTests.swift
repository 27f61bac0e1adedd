import Foundation
import Testing

/// `scripts/notification-receiver`, the merchant-side example, on its own: what it remembers
/// decides whether a later delivery is handled or dropped as a repeat.
@Suite("Notification receiver")
struct NotificationReceiverTests {
    static func request(path: String, id: String, body: String, declaredLength: Int? = nil) -> String {
        "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "X-Notification-Secret: \(NotificationDeliveryTests.secret)\r\nX-Notification-Id: \(id)\r\n"
            + "X-Notification-Attempt: 1\r\nContent-Length: \(declaredLength ?? body.utf8.count)\r\n\r\n\(body)"
    }

    @Test("a request cut off mid-body (its sender killed) is neither logged nor remembered: the full delivery of that id is handled")
    func cutOffRequest() async throws {
        let log = NotificationReplicaTests.temporaryLog()
        let receiver = try await NotificationReceiver(secret: NotificationDeliveryTests.secret, log: log)
        defer { receiver.stop() }
        let body = #"{"order":{"id":"cut-1"},"transaction":{"id":"1"}}"#
        let path = URL(string: receiver.url)!.path + "/hook"

        let cut = try RawConnection(port: receiver.port)
        #expect(cut.send(Self.request(path: path, id: "24", body: String(body.prefix(10)), declaredLength: body.utf8.count)))
        cut.close()

        let whole = try RawConnection(port: receiver.port)
        defer { whole.close() }
        #expect(whole.send(Self.request(path: path, id: "24", body: body)))
        #expect(whole.receive(timeout: .seconds(10)).text.hasPrefix("HTTP/1.1 200"))

        let arrivals = receiver.arrivals
        #expect(arrivals.count == 1)
        #expect(arrivals.first?.body == body)
        #expect(arrivals.first?.isRepeat == false)
    }
}
