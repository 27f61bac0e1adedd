import Foundation
import GatewayCore
import Testing

@testable import MPGSAPI

/// The hand-made formatter against Foundation's, which it replaced for speed.
@Suite("Response timestamps")
struct TimestampTests {
    static func foundationString(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
            .replacingOccurrences(of: "+0000", with: "Z")
    }

    static func foundationBatch(_ date: Date) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return parts.year! * 10000 + parts.month! * 100 + parts.day!
    }

    /// Random instants from 1970 to 2200; their fractions are quarters of a second, exact in a
    /// Double, so both formatters see the same milliseconds.
    @Test("the same text and batch as Foundation, on edge days and random instants")
    func matchesFoundation() {
        let edges: [Int64] = [
            0, 86_399_750, 86_400_000, 951_782_400_000, 951_868_799_750, 4_107_542_399_750, 1_700_000_000_250,
            1_709_164_800_000, 1_735_689_599_750, 1_735_689_600_000,
        ]
        var generator = SystemRandomNumberGenerator()
        let random = (0..<5000).map { _ in
            Int64.random(in: 0...7_258_118_400, using: &generator) * 1000 + 250 * Int64.random(in: 0...3, using: &generator)
        }
        for milliseconds in edges + random {
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            #expect(Timestamp.string(date) == Self.foundationString(date), "\(milliseconds)")
            #expect(Timestamp.batch(date) == Self.foundationBatch(date), "\(milliseconds)")
        }
    }

    @Test("a known instant")
    func knownInstant() {
        let date = Date(milliseconds: 1_795_391_994_123)
        #expect(Timestamp.string(date) == "2026-11-22T23:59:54.123Z")
        #expect(Timestamp.batch(date) == 20_261_122)
    }
}
