// A SQLite VFS that writes each commit's write-ahead-log frames in one system call.
#ifndef GATEWAY_WAL_BUFFER_H
#define GATEWAY_WAL_BUFFER_H

#include <stdint.h>

// Registers the VFS as SQLite's default, over the one that was (unix). Call once, before the
// first connection opens; returns a SQLite result code.
int gateway_wal_buffer_register(void);

// For tests: registers another buffering VFS, named `name` and not the default, over the VFS
// named `underlying` (one that injects faults), so a connection opened with it has the buffer
// between SQLite and the faults. Returns a SQLite result code.
int gateway_wal_buffer_register_over(const char *name, const char *underlying);

// Writes SQLite asked of a write-ahead log on the calling thread, and the system calls that wrote
// them (tests read these to see the buffering work).
int64_t gateway_wal_buffer_writes_asked(void);
int64_t gateway_wal_buffer_writes_made(void);

#endif
