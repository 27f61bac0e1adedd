import Foundation

extension Date {
    /// Stores keep times as milliseconds since 1970, so a retried request's response matches exactly.
    package init(milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    package var milliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
}
