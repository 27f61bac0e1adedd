import CSQLite
import CSQLiteFaultVFS
import CSQLiteWALBuffer
import Foundation
import Testing

/// A disk that fails when told: a fault-injecting SQLite VFS (CSQLiteFaultVFS) under the
/// write-ahead-log buffer, registered under names of its own, so only the stores a test opens
/// with ``vfs`` see it.
struct FaultyDisk {
    /// What the system call under SQLite's unix VFS did, and the code SQLite reports for it.
    enum Fault: String, CaseIterable, CustomTestStringConvertible {
        case eioOnWrite = "EIO on write"
        case enospcOnWrite = "ENOSPC on write"
        case eioOnFsync = "EIO on fsync"
        case enospcOnFsync = "ENOSPC on fsync"

        var testDescription: String { rawValue }

        var onSync: Bool { self == .eioOnFsync || self == .enospcOnFsync }

        /// The unix VFS reports ENOSPC on a write as SQLITE_FULL, any other failed write as
        /// SQLITE_IOERR_WRITE, and any failed fsync as SQLITE_IOERR_FSYNC.
        var code: Int32 {
            switch self {
            case .eioOnWrite: SQLITE_IOERR | (3 << 8)  // SQLITE_IOERR_WRITE
            case .enospcOnWrite: SQLITE_FULL
            case .eioOnFsync, .enospcOnFsync: SQLITE_IOERR | (4 << 8)  // SQLITE_IOERR_FSYNC
            }
        }
    }

    /// The VFS to open a store with: the buffer over the faults.
    let vfs: String
    private let faults: String

    init() {
        let name = UUID().uuidString
        faults = "faults-\(name)"
        vfs = "buffered-faults-\(name)"
        precondition(gateway_fault_vfs_register(faults) == SQLITE_OK)
        precondition(gateway_wal_buffer_register_over(vfs, faults) == SQLITE_OK)
    }

    /// From the next write or sync of the write-ahead log (or of the database file, which only
    /// checkpoints write) on, `fault` until ``heal()``.
    func inject(_ fault: Fault, after: Int32 = 0, onDatabaseFile: Bool = false) {
        let kinds = Int32(onDatabaseFile ? gateway_fault_database : gateway_fault_wal)
        if fault.onSync {
            _ = gateway_fault_vfs_fail_syncs(faults, kinds, after, fault.code)
        } else {
            _ = gateway_fault_vfs_fail_writes(faults, kinds, after, fault.code)
        }
    }

    func heal() {
        _ = gateway_fault_vfs_fail_writes(faults, 0, 0, 0)
        _ = gateway_fault_vfs_fail_syncs(faults, 0, 0, 0)
    }

    /// Writes and syncs failed so far.
    var failures: Int64 { gateway_fault_vfs_failures(faults) }

    /// The power goes: nothing written from now on reaches the disk.
    func cutPower() {
        _ = gateway_fault_vfs_cut_power(faults)
    }

    /// The database at `path` and its log as a power cut leaves them: each as of its last
    /// successful sync (empty if it never had one); the shared memory index is rebuilt by the
    /// next connection. Call once every connection of the store has closed.
    static func restoreAfterPowerCut(_ path: String) throws {
        let files = FileManager.default
        for file in [path, path + "-wal"] {
            if files.fileExists(atPath: file + ".synced") {
                _ = try? files.removeItem(atPath: file)
                try files.moveItem(atPath: file + ".synced", toPath: file)
            } else if files.fileExists(atPath: file) {
                try FileHandle(forWritingAtPath: file).map { try $0.truncate(atOffset: 0) }
            }
        }
        try? files.removeItem(atPath: path + "-shm")
    }
}
