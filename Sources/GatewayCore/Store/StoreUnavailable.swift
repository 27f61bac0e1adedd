/// The database could not be reached in time: PostgreSQL is down or restarting, or every pooled
/// connection stayed busy. The client gets SERVER_BUSY and may retry, which is safe: a retry
/// with the same ids returns the stored response if the first attempt was in fact committed.
package struct StoreUnavailable: Error, CustomStringConvertible {
    package let reason: String
    package var description: String { "store unavailable: \(reason)" }

    package init(reason: String) { self.reason = reason }
}
