// The system SQLite (libsqlite3-dev): the embedded store, with WAL and explicit durability settings.
#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call. Turning off SQLite's memory statistics
// (which nothing here reads) takes a process-wide mutex off every allocation and free SQLite
// makes. Only takes effect before SQLite initializes; returns SQLITE_MISUSE after.
static inline int gateway_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
