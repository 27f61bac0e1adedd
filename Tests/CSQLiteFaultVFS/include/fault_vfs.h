// For tests only: a SQLite VFS over the unix one that fails writes and syncs on demand, and keeps
// each file as it was at its last successful sync, so that a test can cut the power.
#ifndef GATEWAY_FAULT_VFS_H
#define GATEWAY_FAULT_VFS_H

#include <stdint.h>

// The files a fault applies to, by what SQLite opened them as.
enum {
    gateway_fault_database = 1,
    gateway_fault_wal = 2,
    gateway_fault_other = 4,
};

// Registers a VFS named `name` (not the default) over "unix". Returns a SQLite result code.
int gateway_fault_vfs_register(const char *name);

// After `after` more succeed, every write (or sync) of a file of `kinds` fails with `code` (a
// SQLite result code, as the unix VFS reports the system's: SQLITE_FULL for ENOSPC on write,
// SQLITE_IOERR_WRITE for EIO on write, SQLITE_IOERR_FSYNC for either on fsync) and changes
// nothing, until told otherwise; code 0 heals.
int gateway_fault_vfs_fail_writes(const char *name, int kinds, int after, int code);
int gateway_fault_vfs_fail_syncs(const char *name, int kinds, int after, int code);

// The power goes: from now on every write, sync, truncate and delete fails and changes nothing.
// Each file's content as of its last successful sync is in "<path>.synced" (none: never synced).
int gateway_fault_vfs_cut_power(const char *name);

// Writes and syncs failed so far.
int64_t gateway_fault_vfs_failures(const char *name);

#endif
