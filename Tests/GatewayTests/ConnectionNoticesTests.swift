import Foundation
import NIOCore
import Testing

@testable import Gateway
@testable import MPGSAPI

/// One client churning connections used to write a notice per dropped connection: 676,000 lines
/// in four minutes. Each interval now logs a bounded number, and counts the rest.
@Suite("Connection notices are rate limited")
struct ConnectionNoticesTests {
    @Test("10,000 notices in one interval log 20 lines; the rest arrive as one count per reason")
    func boundedAndCounted() async throws {
        let logs = LogCollector()
        let notices = ConnectionNotices(logger: logs.logger, interval: .milliseconds(300), perInterval: 20)
        for index in 0..<10_000 { notices.notice(index % 2 == 0 ? "slow head" : "slow body") }
        #expect(logs.all.count == 20)
        // The next notice after the interval brings the summary.
        try await Task.sleep(for: .milliseconds(350))
        notices.notice("slow head")
        let lines = logs.all
        #expect(lines.count == 22)
        let summary = try #require(lines.first { $0.contains("suppressed") })
        #expect(summary.contains("4990 × slow body"))
        #expect(summary.contains("4990 × slow head"))
        #expect(summary.contains("\"suppressed\":\"9980\""))
    }
}
