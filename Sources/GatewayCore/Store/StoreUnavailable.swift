/// The store cannot serve the request now: PostgreSQL is down or restarting, every pooled
/// connection stayed busy, or the store answers but cannot write (its disk is full or failing).
/// The client gets SERVER_BUSY and may retry, which is safe: a retry with the same ids returns the
/// stored response if the first attempt was in fact committed.
package struct StoreUnavailable: Error, CustomStringConvertible {
    /// Why, as a type: the metric's label and the readiness check's answer, never parsed from text.
    package enum Cause: String, Sendable, CaseIterable {
        /// Not reached in time (down, restarting, failing over, or every connection busy).
        case unreachable
        /// Reached, but a write found no space (ENOSPC: SQLite's SQLITE_FULL).
        case diskFull = "disk_full"
        /// Reached, but the disk failed a write, a sync or a read (EIO: SQLite's SQLITE_IOERR).
        case ioError = "io_error"
        /// Reached, but its files may not be written (a read-only mount or file).
        case readOnly = "read_only"

        /// The store answers reads and still cannot record anything.
        package var cannotWrite: Bool { self != .unreachable }
    }

    package let cause: Cause
    package let reason: String
    package var description: String {
        cause.cannotWrite ? "store cannot write (\(cause.rawValue)): \(reason)" : "store unavailable: \(reason)"
    }

    package init(reason: String, cause: Cause = .unreachable) {
        self.reason = reason
        self.cause = cause
    }
}
