import CSQLite
import GatewayCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether the SQLite writer can write: the disk under it may be full, failing or read-only while
/// the file still answers reads. A write that fails so makes it unable until one succeeds again;
/// the error becomes ``StoreUnavailable`` with its cause, so the client gets SERVER_BUSY with
/// Retry-After and readiness says NOT_READY instead of READY.
final class SQLiteWriteHealth: Sendable {
    private struct State {
        var failing: StoreUnavailable?
        var lastProbe: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    /// How often readiness may try a write while writes fail: a probe is one page and one fsync.
    private let probeInterval: Duration = .seconds(1)

    /// The failure the last write met, nil when it succeeded.
    var failing: StoreUnavailable? { state.withLock { $0.failing } }

    /// `error` as the caller should see it: a failure of the disk becomes ``StoreUnavailable``
    /// and leaves the writer unable to write; any other error stays as it is.
    func failed(_ error: any Error) -> any Error {
        guard let unavailable = Self.classify(error) else { return error }
        if unavailable.cause.cannotWrite { state.withLock { $0.failing = unavailable } }
        return unavailable
    }

    func succeeded() {
        state.withLock { $0.failing = nil }
    }

    /// Whether readiness should try a write now: writes are failing, and no probe ran in the
    /// last second (each readiness check of a load balancer would otherwise write).
    func shouldProbe(at now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            guard state.failing != nil else { return false }
            if let last = state.lastProbe, now - last < probeInterval { return false }
            state.lastProbe = now
            return true
        }
    }

    /// After a full disk, room for a few group commits (a payment writes about ten pages of log):
    /// the probe's one page fitted in the last free bytes while every payment still failed, and
    /// readiness went READY and NOT_READY in turn.
    static let roomAfterFullDisk: UInt64 = 1 << 20

    /// Throws the failure while the disk was full and the file system holding `path` still has
    /// less than ``roomAfterFullDisk`` free.
    func checkRoom(beside path: String) throws {
        guard let failing, failing.cause == .diskFull else { return }
        var status = statvfs()
        guard statvfs(path, &status) == 0 else { return }
        if UInt64(status.f_bavail) * UInt64(status.f_frsize) < Self.roomAfterFullDisk { throw failing }
    }

    /// SQLite's answer for a disk that cannot take a write, or a lock held elsewhere too long, as
    /// the store being unavailable; nil for anything else (a constraint, a bug).
    static func classify(_ error: any Error) -> StoreUnavailable? {
        if let error = error as? StoreUnavailable { return error }
        guard let failure = error as? SQLiteConnection.Failure else { return nil }
        let cause: StoreUnavailable.Cause
        switch failure.code & 0xFF {
        case SQLITE_FULL: cause = .diskFull
        case SQLITE_IOERR, SQLITE_CANTOPEN: cause = .ioError
        case SQLITE_READONLY: cause = .readOnly
        case SQLITE_BUSY: cause = .unreachable
        default: return nil
        }
        return StoreUnavailable(reason: "SQLite \(failure.code): \(failure.message)", cause: cause)
    }
}
