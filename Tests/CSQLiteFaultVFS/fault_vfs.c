// A VFS for fault-injection tests: passes everything to the unix VFS except that writes and syncs
// fail when a test says so, and that each successful sync copies the file to "<path>.synced",
// which is what a power cut leaves (the strictest case: nothing written since is kept).

#include "fault_vfs.h"

#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct fault {
    int kinds;
    int after;
    int code;
} fault;

typedef struct fault_state {
    pthread_mutex_t lock;
    // Held across each write, truncate, and sync with its copy, by every connection: a copy is
    // the file exactly as the sync left it, and two connections never copy one file at once.
    pthread_mutex_t io;
    fault write;
    fault sync;
    int power_cut;
    int64_t failures;
} fault_state;

typedef struct fault_vfs {
    sqlite3_vfs base;
    sqlite3_vfs *unix_vfs;
    fault_state state;
} fault_vfs;

typedef struct fault_file {
    sqlite3_file base;
    sqlite3_file *real;  // the unix VFS's file, allocated right after this struct
    fault_vfs *vfs;
    int kind;
    char *path;  // NULL for a temporary file
} fault_file;

static fault_vfs *find(const char *name) {
    sqlite3_vfs *vfs = sqlite3_vfs_find(name);
    return vfs ? (fault_vfs *)vfs->pAppData : NULL;
}

// The code a call on `file` fails with under `which` (0: it goes ahead).
static int failing(fault_file *file, fault *which, int failed_by_power_cut) {
    fault_state *state = &file->vfs->state;
    pthread_mutex_lock(&state->lock);
    int code = 0;
    if (state->power_cut) {
        code = failed_by_power_cut;
    } else if (which->code != 0 && (which->kinds & file->kind)) {
        if (which->after > 0) {
            which->after -= 1;
        } else {
            code = which->code;
        }
    }
    if (code != 0) state->failures += 1;
    pthread_mutex_unlock(&state->lock);
    return code;
}

// Copies the file as it is now to "<path>.synced" (through a temporary name, so a copy is whole).
static int keep_synced_copy(fault_file *file) {
    if (!file->path) return SQLITE_OK;
    sqlite3_int64 size = 0;
    int status = file->real->pMethods->xFileSize(file->real, &size);
    if (status != SQLITE_OK) return status;
    size_t length = strlen(file->path);
    char *temporary = malloc(length + 16);
    char *synced = malloc(length + 16);
    unsigned char *chunk = malloc(65536);
    int result = SQLITE_IOERR;
    int descriptor = -1;
    if (!temporary || !synced || !chunk) goto done;
    snprintf(temporary, length + 16, "%s.synced-new", file->path);
    snprintf(synced, length + 16, "%s.synced", file->path);
    descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (descriptor < 0) goto done;
    for (sqlite3_int64 offset = 0; offset < size;) {
        int amount = size - offset < 65536 ? (int)(size - offset) : 65536;
        if (file->real->pMethods->xRead(file->real, chunk, amount, offset) != SQLITE_OK) goto done;
        if (pwrite(descriptor, chunk, (size_t)amount, offset) != amount) goto done;
        offset += amount;
    }
    if (close(descriptor) != 0) {
        descriptor = -1;
        goto done;
    }
    descriptor = -1;
    if (rename(temporary, synced) != 0) goto done;
    result = SQLITE_OK;
done:
    if (descriptor >= 0) close(descriptor);
    free(temporary);
    free(synced);
    free(chunk);
    return result;
}

static int fault_close(sqlite3_file *base) {
    fault_file *file = (fault_file *)base;
    int status = file->real->pMethods->xClose(file->real);
    free(file->path);
    file->path = NULL;
    return status;
}

static int fault_read(sqlite3_file *base, void *out, int amount, sqlite3_int64 offset) {
    fault_file *file = (fault_file *)base;
    return file->real->pMethods->xRead(file->real, out, amount, offset);
}

static int fault_write(sqlite3_file *base, const void *data, int amount, sqlite3_int64 offset) {
    fault_file *file = (fault_file *)base;
    int code = failing(file, &file->vfs->state.write, SQLITE_IOERR_WRITE);
    if (code != 0) return code;
    pthread_mutex_lock(&file->vfs->state.io);
    int status = file->real->pMethods->xWrite(file->real, data, amount, offset);
    pthread_mutex_unlock(&file->vfs->state.io);
    return status;
}

static int fault_truncate(sqlite3_file *base, sqlite3_int64 size) {
    fault_file *file = (fault_file *)base;
    fault none = {0, 0, 0};
    if (failing(file, &none, SQLITE_IOERR_TRUNCATE) != 0) return SQLITE_IOERR_TRUNCATE;
    pthread_mutex_lock(&file->vfs->state.io);
    int status = file->real->pMethods->xTruncate(file->real, size);
    pthread_mutex_unlock(&file->vfs->state.io);
    return status;
}

static int fault_sync(sqlite3_file *base, int flags) {
    fault_file *file = (fault_file *)base;
    int code = failing(file, &file->vfs->state.sync, SQLITE_IOERR_FSYNC);
    if (code != 0) return code;
    pthread_mutex_lock(&file->vfs->state.io);
    int status = file->real->pMethods->xSync(file->real, flags);
    if (status == SQLITE_OK) status = keep_synced_copy(file);
    pthread_mutex_unlock(&file->vfs->state.io);
    return status;
}

static int fault_file_size(sqlite3_file *base, sqlite3_int64 *size) {
    fault_file *file = (fault_file *)base;
    return file->real->pMethods->xFileSize(file->real, size);
}

static int fault_lock(sqlite3_file *base, int lock) {
    fault_file *file = (fault_file *)base;
    return file->real->pMethods->xLock(file->real, lock);
}

static int fault_unlock(sqlite3_file *base, int lock) {
    fault_file *file = (fault_file *)base;
    return file->real->pMethods->xUnlock(file->real, lock);
}

static int fault_check_reserved_lock(sqlite3_file *base, int *result) {
    fault_file *file = (fault_file *)base;
    return file->real->pMethods->xCheckReservedLock(file->real, result);
}

static int fault_file_control(sqlite3_file *base, int op, void *argument) {
    fault_file *file = (fault_file *)base;
    return file->real->pMethods->xFileControl(file->real, op, argument);
}

static int fault_sector_size(sqlite3_file *base) {
    fault_file *file = (fault_file *)base;
    return file->real->pMethods->xSectorSize(file->real);
}

static int fault_device_characteristics(sqlite3_file *base) {
    fault_file *file = (fault_file *)base;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

static int fault_shm_map(sqlite3_file *base, int region, int size, int extend, void volatile **address) {
    fault_file *file = (fault_file *)base;
    return file->real->pMethods->xShmMap(file->real, region, size, extend, address);
}

static int fault_shm_lock(sqlite3_file *base, int offset, int count, int flags) {
    fault_file *file = (fault_file *)base;
    return file->real->pMethods->xShmLock(file->real, offset, count, flags);
}

static void fault_shm_barrier(sqlite3_file *base) {
    fault_file *file = (fault_file *)base;
    file->real->pMethods->xShmBarrier(file->real);
}

static int fault_shm_unmap(sqlite3_file *base, int delete_flag) {
    fault_file *file = (fault_file *)base;
    return file->real->pMethods->xShmUnmap(file->real, delete_flag);
}

static int fault_fetch(sqlite3_file *base, sqlite3_int64 offset, int amount, void **pointer) {
    (void)base;
    (void)offset;
    (void)amount;
    *pointer = NULL;  // no memory mapping: every write goes through xWrite, where faults are
    return SQLITE_OK;
}

static int fault_unfetch(sqlite3_file *base, sqlite3_int64 offset, void *pointer) {
    (void)base;
    (void)offset;
    (void)pointer;
    return SQLITE_OK;
}

static const sqlite3_io_methods fault_methods = {
    .iVersion = 3,
    .xClose = fault_close,
    .xRead = fault_read,
    .xWrite = fault_write,
    .xTruncate = fault_truncate,
    .xSync = fault_sync,
    .xFileSize = fault_file_size,
    .xLock = fault_lock,
    .xUnlock = fault_unlock,
    .xCheckReservedLock = fault_check_reserved_lock,
    .xFileControl = fault_file_control,
    .xSectorSize = fault_sector_size,
    .xDeviceCharacteristics = fault_device_characteristics,
    .xShmMap = fault_shm_map,
    .xShmLock = fault_shm_lock,
    .xShmBarrier = fault_shm_barrier,
    .xShmUnmap = fault_shm_unmap,
    .xFetch = fault_fetch,
    .xUnfetch = fault_unfetch,
};

static int fault_open(sqlite3_vfs *base, sqlite3_filename name, sqlite3_file *opened, int flags, int *out_flags) {
    fault_vfs *vfs = (fault_vfs *)base->pAppData;
    fault_file *file = (fault_file *)opened;
    memset(file, 0, sizeof(*file));
    file->real = (sqlite3_file *)(file + 1);
    file->vfs = vfs;
    file->kind = (flags & SQLITE_OPEN_MAIN_DB) ? gateway_fault_database
                 : (flags & SQLITE_OPEN_WAL)   ? gateway_fault_wal
                                               : gateway_fault_other;
    int status = vfs->unix_vfs->xOpen(vfs->unix_vfs, name, file->real, flags, out_flags);
    if (status != SQLITE_OK) return status;
    file->path = name ? strdup(name) : NULL;
    file->base.pMethods = &fault_methods;
    return SQLITE_OK;
}

static int fault_delete(sqlite3_vfs *base, const char *name, int sync_directory) {
    fault_vfs *vfs = (fault_vfs *)base->pAppData;
    pthread_mutex_lock(&vfs->state.lock);
    int cut = vfs->state.power_cut;
    pthread_mutex_unlock(&vfs->state.lock);
    if (cut) return SQLITE_IOERR_DELETE;
    return vfs->unix_vfs->xDelete(vfs->unix_vfs, name, sync_directory);
}

static int fault_access(sqlite3_vfs *base, const char *name, int flags, int *result) {
    fault_vfs *vfs = (fault_vfs *)base->pAppData;
    return vfs->unix_vfs->xAccess(vfs->unix_vfs, name, flags, result);
}

static int fault_full_pathname(sqlite3_vfs *base, const char *name, int size, char *out) {
    fault_vfs *vfs = (fault_vfs *)base->pAppData;
    return vfs->unix_vfs->xFullPathname(vfs->unix_vfs, name, size, out);
}

static int fault_randomness(sqlite3_vfs *base, int size, char *out) {
    fault_vfs *vfs = (fault_vfs *)base->pAppData;
    return vfs->unix_vfs->xRandomness(vfs->unix_vfs, size, out);
}

static int fault_sleep(sqlite3_vfs *base, int microseconds) {
    fault_vfs *vfs = (fault_vfs *)base->pAppData;
    return vfs->unix_vfs->xSleep(vfs->unix_vfs, microseconds);
}

static int fault_current_time(sqlite3_vfs *base, double *now) {
    fault_vfs *vfs = (fault_vfs *)base->pAppData;
    return vfs->unix_vfs->xCurrentTime(vfs->unix_vfs, now);
}

static int fault_current_time_int64(sqlite3_vfs *base, sqlite3_int64 *now) {
    fault_vfs *vfs = (fault_vfs *)base->pAppData;
    return vfs->unix_vfs->xCurrentTimeInt64(vfs->unix_vfs, now);
}

static int fault_last_error(sqlite3_vfs *base, int size, char *out) {
    fault_vfs *vfs = (fault_vfs *)base->pAppData;
    return vfs->unix_vfs->xGetLastError(vfs->unix_vfs, size, out);
}

int gateway_fault_vfs_register(const char *name) {
    sqlite3_vfs *unix_vfs = sqlite3_vfs_find("unix");
    if (!unix_vfs || !name) return SQLITE_ERROR;
    fault_vfs *vfs = calloc(1, sizeof(fault_vfs));
    char *copied = strdup(name);
    if (!vfs || !copied) {
        free(vfs);
        free(copied);
        return SQLITE_NOMEM;
    }
    pthread_mutex_init(&vfs->state.lock, NULL);
    pthread_mutex_init(&vfs->state.io, NULL);
    vfs->unix_vfs = unix_vfs;
    vfs->base = (sqlite3_vfs){
        .iVersion = 2,
        .szOsFile = (int)sizeof(fault_file) + unix_vfs->szOsFile,
        .mxPathname = unix_vfs->mxPathname,
        .zName = copied,
        .pAppData = vfs,
        .xOpen = fault_open,
        .xDelete = fault_delete,
        .xAccess = fault_access,
        .xFullPathname = fault_full_pathname,
        .xRandomness = fault_randomness,
        .xSleep = fault_sleep,
        .xCurrentTime = fault_current_time,
        .xGetLastError = fault_last_error,
        .xCurrentTimeInt64 = fault_current_time_int64,
    };
    return sqlite3_vfs_register(&vfs->base, 0);
}

static int set_fault(const char *name, int sync, int kinds, int after, int code) {
    fault_vfs *vfs = find(name);
    if (!vfs) return SQLITE_ERROR;
    pthread_mutex_lock(&vfs->state.lock);
    fault *which = sync ? &vfs->state.sync : &vfs->state.write;
    *which = (fault){kinds, after, code};
    pthread_mutex_unlock(&vfs->state.lock);
    return SQLITE_OK;
}

int gateway_fault_vfs_fail_writes(const char *name, int kinds, int after, int code) {
    return set_fault(name, 0, kinds, after, code);
}

int gateway_fault_vfs_fail_syncs(const char *name, int kinds, int after, int code) {
    return set_fault(name, 1, kinds, after, code);
}

int gateway_fault_vfs_cut_power(const char *name) {
    fault_vfs *vfs = find(name);
    if (!vfs) return SQLITE_ERROR;
    pthread_mutex_lock(&vfs->state.lock);
    vfs->state.power_cut = 1;
    pthread_mutex_unlock(&vfs->state.lock);
    return SQLITE_OK;
}

int64_t gateway_fault_vfs_failures(const char *name) {
    fault_vfs *vfs = find(name);
    if (!vfs) return -1;
    pthread_mutex_lock(&vfs->state.lock);
    int64_t failures = vfs->state.failures;
    pthread_mutex_unlock(&vfs->state.lock);
    return failures;
}
