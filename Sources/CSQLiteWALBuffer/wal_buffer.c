// SQLite writes a commit's write-ahead log frame by frame: a 24-byte header and a page, each
// with a pwrite of its own, so a one-record commit of ten pages makes about twenty system calls
// before its fsync. This VFS sits over the default one and gathers a log's consecutive writes in
// memory, writing them as one pwrite when the commit's last page is written (so a failed write
// fails the commit, synced or not), and in any case before anything could depend on them being
// in the file: before any read, sync, truncate, size query, lock change or close of that file,
// and before the shared-memory barrier and lock calls with which a commit is published to other
// connections.
// Everything else, and every file other than a write-ahead log, goes straight through.

#include "wal_buffer.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// SQLite's unix VFS writes at most 128 KiB - 1 in one call (it masks the length to 17 bits),
// so a buffer is written out before it would hold more: thirty 4 KiB pages with their headers.
enum { buffer_capacity = 126 * 1024 };

typedef struct buffered_file {
    sqlite3_file base;
    sqlite3_file *real;  // the underlying VFS's file, allocated right after this struct
    int is_wal;
    unsigned char *buffer;  // consecutive writes from buffer_offset on, not yet in the file
    int buffered;
    sqlite3_int64 buffer_offset;
    // The last write was the header of a commit's last frame: its page completes the commit.
    int commit_frame_follows;
    // A database and its connection's write-ahead log know each other: SQLite publishes a commit
    // through the database file's shared memory, so that is where the log must be flushed.
    struct buffered_file *wal;
    struct buffered_file *database;
} buffered_file;

// A buffering VFS and the one under it (SQLite's default, or for tests one that injects faults).
typedef struct buffered_vfs {
    sqlite3_vfs base;
    sqlite3_vfs *underlying;
} buffered_vfs;

static buffered_vfs default_vfs;
// Per thread, so that a test counts its own connection's writes, whatever else runs beside it.
static _Thread_local int64_t writes_asked;
static _Thread_local int64_t writes_made;

static int flush(buffered_file *file) {
    if (file->buffered == 0) return SQLITE_OK;
    int status = file->real->pMethods->xWrite(file->real, file->buffer, file->buffered, file->buffer_offset);
    writes_made += 1;
    file->buffered = 0;
    return status;
}

#define FLUSHED(file) \
    do { \
        int flushed = flush(file); \
        if (flushed != SQLITE_OK) return flushed; \
    } while (0)

// The log of a database file (nothing when it has none open, or is itself a log).
static int flush_wal_of(buffered_file *database) {
    return database->wal ? flush(database->wal) : SQLITE_OK;
}

static int buffered_close(sqlite3_file *base) {
    buffered_file *file = (buffered_file *)base;
    int flushed = flush(file);
    if (file->database) file->database->wal = NULL;
    if (file->wal) file->wal->database = NULL;
    int closed = file->real->pMethods ? file->real->pMethods->xClose(file->real) : SQLITE_OK;
    free(file->buffer);
    file->buffer = NULL;
    return flushed != SQLITE_OK ? flushed : closed;
}

static int buffered_read(sqlite3_file *base, void *out, int amount, sqlite3_int64 offset) {
    buffered_file *file = (buffered_file *)base;
    FLUSHED(file);
    return file->real->pMethods->xRead(file->real, out, amount, offset);
}

static int buffered_write(sqlite3_file *base, const void *data, int amount, sqlite3_int64 offset) {
    buffered_file *file = (buffered_file *)base;
    if (!file->is_wal) return file->real->pMethods->xWrite(file->real, data, amount, offset);
    writes_asked += 1;
    if (file->buffered > 0
        && (offset != file->buffer_offset + file->buffered || file->buffered + amount > buffer_capacity)) {
        FLUSHED(file);
    }
    if (amount > buffer_capacity) {
        writes_made += 1;
        return file->real->pMethods->xWrite(file->real, data, amount, offset);
    }
    if (file->buffer == NULL) {
        file->buffer = malloc(buffer_capacity);
        if (file->buffer == NULL) return SQLITE_NOMEM;
    }
    if (file->buffered == 0) file->buffer_offset = offset;
    memcpy(file->buffer + file->buffered, data, (size_t)amount);
    file->buffered += amount;
    // A commit's frames are written out with its last page, so that a failed write fails the
    // commit, even one that does not sync (synchronous=NORMAL): SQLite writes each frame as a
    // 24-byte header, whose bytes 4-7 hold the database's size after a commit (zero before it),
    // then the page.
    if (file->commit_frame_follows) {
        file->commit_frame_follows = 0;
        return flush(file);
    }
    if (amount == 24) {
        const unsigned char *header = data;
        file->commit_frame_follows = (header[4] | header[5] | header[6] | header[7]) != 0;
    }
    return SQLITE_OK;
}

static int buffered_truncate(sqlite3_file *base, sqlite3_int64 size) {
    buffered_file *file = (buffered_file *)base;
    FLUSHED(file);
    return file->real->pMethods->xTruncate(file->real, size);
}

static int buffered_sync(sqlite3_file *base, int flags) {
    buffered_file *file = (buffered_file *)base;
    FLUSHED(file);
    return file->real->pMethods->xSync(file->real, flags);
}

static int buffered_file_size(sqlite3_file *base, sqlite3_int64 *size) {
    buffered_file *file = (buffered_file *)base;
    FLUSHED(file);
    return file->real->pMethods->xFileSize(file->real, size);
}

static int buffered_lock(sqlite3_file *base, int lock) {
    buffered_file *file = (buffered_file *)base;
    FLUSHED(file);
    return file->real->pMethods->xLock(file->real, lock);
}

static int buffered_unlock(sqlite3_file *base, int lock) {
    buffered_file *file = (buffered_file *)base;
    FLUSHED(file);
    return file->real->pMethods->xUnlock(file->real, lock);
}

static int buffered_check_reserved_lock(sqlite3_file *base, int *result) {
    buffered_file *file = (buffered_file *)base;
    return file->real->pMethods->xCheckReservedLock(file->real, result);
}

static int buffered_file_control(sqlite3_file *base, int op, void *argument) {
    buffered_file *file = (buffered_file *)base;
    FLUSHED(file);
    return file->real->pMethods->xFileControl(file->real, op, argument);
}

static int buffered_sector_size(sqlite3_file *base) {
    buffered_file *file = (buffered_file *)base;
    return file->real->pMethods->xSectorSize(file->real);
}

static int buffered_device_characteristics(sqlite3_file *base) {
    buffered_file *file = (buffered_file *)base;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

static int buffered_shm_map(sqlite3_file *base, int region, int size, int extend, void volatile **address) {
    buffered_file *file = (buffered_file *)base;
    return file->real->pMethods->xShmMap(file->real, region, size, extend, address);
}

static int buffered_shm_lock(sqlite3_file *base, int offset, int count, int flags) {
    buffered_file *file = (buffered_file *)base;
    int flushed = flush_wal_of(file);
    if (flushed != SQLITE_OK) return flushed;
    return file->real->pMethods->xShmLock(file->real, offset, count, flags);
}

static void buffered_shm_barrier(sqlite3_file *base) {
    buffered_file *file = (buffered_file *)base;
    // SQLite calls this just before it publishes a commit, and can hear no error from it. The
    // buffer is empty by then: a commit's last page writes the commit's frames out and fails the
    // commit if that fails (buffered_write), and SQLite writes nothing to the log between that
    // and publishing. Were anything left and its write to fail, SQLite would publish, and answer
    // for, a commit whose frames are not in the file: the process stops instead, and the crash
    // loses only what nobody was told was committed.
    if (flush_wal_of(file) != SQLITE_OK) {
        fputs("gateway-wal-buffer: a write-ahead log write failed at a commit's publication; stopping\n", stderr);
        abort();
    }
    file->real->pMethods->xShmBarrier(file->real);
}

static int buffered_shm_unmap(sqlite3_file *base, int delete_flag) {
    buffered_file *file = (buffered_file *)base;
    int flushed = flush_wal_of(file);
    if (flushed != SQLITE_OK) return flushed;
    return file->real->pMethods->xShmUnmap(file->real, delete_flag);
}

static int buffered_fetch(sqlite3_file *base, sqlite3_int64 offset, int amount, void **pointer) {
    buffered_file *file = (buffered_file *)base;
    FLUSHED(file);
    if (file->real->pMethods->iVersion < 3) {
        *pointer = NULL;  // no memory mapping: SQLite reads instead
        return SQLITE_OK;
    }
    return file->real->pMethods->xFetch(file->real, offset, amount, pointer);
}

static int buffered_unfetch(sqlite3_file *base, sqlite3_int64 offset, void *pointer) {
    buffered_file *file = (buffered_file *)base;
    if (file->real->pMethods->iVersion < 3) return SQLITE_OK;
    return file->real->pMethods->xUnfetch(file->real, offset, pointer);
}

static const sqlite3_io_methods buffered_methods = {
    .iVersion = 3,
    .xClose = buffered_close,
    .xRead = buffered_read,
    .xWrite = buffered_write,
    .xTruncate = buffered_truncate,
    .xSync = buffered_sync,
    .xFileSize = buffered_file_size,
    .xLock = buffered_lock,
    .xUnlock = buffered_unlock,
    .xCheckReservedLock = buffered_check_reserved_lock,
    .xFileControl = buffered_file_control,
    .xSectorSize = buffered_sector_size,
    .xDeviceCharacteristics = buffered_device_characteristics,
    .xShmMap = buffered_shm_map,
    .xShmLock = buffered_shm_lock,
    .xShmBarrier = buffered_shm_barrier,
    .xShmUnmap = buffered_shm_unmap,
    .xFetch = buffered_fetch,
    .xUnfetch = buffered_unfetch,
};

static int buffered_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *base, int flags, int *out_flags) {
    sqlite3_vfs *underlying = ((buffered_vfs *)vfs)->underlying;
    buffered_file *file = (buffered_file *)base;
    memset(file, 0, sizeof(*file));
    file->real = (sqlite3_file *)(file + 1);
    int status = underlying->xOpen(underlying, name, file->real, flags, out_flags);
    if (status != SQLITE_OK) return status;  // SQLite calls no method of a file that did not open
    file->is_wal = (flags & SQLITE_OPEN_WAL) != 0;
    if (file->is_wal && name) {
        buffered_file *database = (buffered_file *)sqlite3_database_file_object(name);
        if (database && database->base.pMethods == &buffered_methods) {
            file->database = database;
            database->wal = file;
        }
    }
    file->base.pMethods = &buffered_methods;
    return SQLITE_OK;
}

// The underlying VFS with a bigger file and this open: its other methods (names, access,
// randomness, time) take the VFS they are called on only to read its own settings, which the
// copy keeps.
static void make(buffered_vfs *vfs, sqlite3_vfs *underlying, const char *name) {
    vfs->base = *underlying;
    vfs->base.pNext = NULL;
    vfs->base.szOsFile = (int)sizeof(buffered_file) + underlying->szOsFile;
    vfs->base.zName = name;
    vfs->base.xOpen = buffered_open;
    vfs->underlying = underlying;
}

int gateway_wal_buffer_register(void) {
    if (default_vfs.underlying) return SQLITE_OK;
    sqlite3_vfs *found = sqlite3_vfs_find(NULL);
    if (!found) return SQLITE_ERROR;
    make(&default_vfs, found, "gateway-wal-buffer");
    return sqlite3_vfs_register(&default_vfs.base, 1);
}

int gateway_wal_buffer_register_over(const char *name, const char *underlying_name) {
    sqlite3_vfs *underlying = sqlite3_vfs_find(underlying_name);
    if (!underlying || !name) return SQLITE_ERROR;
    buffered_vfs *vfs = calloc(1, sizeof(buffered_vfs));
    char *copied = strdup(name);
    if (!vfs || !copied) {
        free(vfs);
        free(copied);
        return SQLITE_NOMEM;
    }
    make(vfs, underlying, copied);
    return sqlite3_vfs_register(&vfs->base, 0);
}

int64_t gateway_wal_buffer_writes_asked(void) {
    return writes_asked;
}

int64_t gateway_wal_buffer_writes_made(void) {
    return writes_made;
}
