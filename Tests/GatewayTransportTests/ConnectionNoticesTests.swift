import NIOCore
import Synchronization
import Testing

@testable import GatewayTransport

/// One client churning connections used to write a notice per dropped connection: 676,000 lines
/// in four minutes. Each interval now logs a bounded number, and counts the rest.
@Suite("Connection notices are rate limited")
struct ConnectionNoticesTests {
    @Test("10,000 notices in one interval log 20 lines; the rest arrive as one count per reason")
    func boundedAndCounted() throws {
        let logs = LogCollector()
        let clock = Mutex(NIODeadline.uptimeNanoseconds(1_000_000_000))
        let notices = ConnectionNotices(logger: logs.logger, interval: .milliseconds(300), perInterval: 20) {
            clock.withLock { $0 }
        }
        for index in 0..<10_000 { notices.notice(index % 2 == 0 ? "slow head" : "slow body") }
        #expect(logs.all.count == 20)
        // Still inside the interval: counted, not logged.
        clock.withLock { $0 = $0 + .milliseconds(299) }
        notices.notice("slow head")
        #expect(logs.all.count == 20)
        // The next notice after the interval brings the summary.
        clock.withLock { $0 = $0 + .milliseconds(2) }
        notices.notice("slow head")
        let records = logs.all
        #expect(records.count == 22)
        let summary = try #require(records.first { $0.message.contains("suppressed") })
        #expect(summary.message.contains("4990 × slow body"))
        #expect(summary.message.contains("4991 × slow head"))
        #expect(summary.metadata["suppressed"] == "9981")
        #expect(records.last?.message == "connection closed: slow head")
    }
}
