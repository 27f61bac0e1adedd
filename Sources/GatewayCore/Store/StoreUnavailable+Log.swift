import Logging
import Synchronization

extension StoreUnavailable {
    /// The lines logged and left out, by cause, for ``log(to:)``.
    private static let logged = Mutex<[Cause: (at: ContinuousClock.Instant, leftOut: Int)]>([:])
    /// At most one line per cause in this long.
    private static let logInterval: Duration = .seconds(10)

    /// Warns that the store refused a request, and why, at most once per cause every ten
    /// seconds; the next line counts the refusals left out. On a full disk under load one line
    /// per refused request flooded the log (and, where the log shares the disk, filled it more).
    package func log(to logger: Logger, at now: ContinuousClock.Instant = .now) {
        let leftOut: Int? = Self.logged.withLock { logged in
            if let last = logged[cause], now - last.at < Self.logInterval {
                logged[cause]?.leftOut += 1
                return nil
            }
            defer { logged[cause] = (now, 0) }
            return logged[cause]?.leftOut ?? 0
        }
        guard let leftOut else { return }
        logger.warning(
            cause.cannotWrite ? "store cannot write" : "store unavailable",
            metadata: ["cause": "\(cause.rawValue)", "error": "\(reason)", "notLoggedSinceLastLine": "\(leftOut)"]
        )
    }
}
