#include "CStoreFaults.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

/// An open file of the fault VFS: the real file follows this header in the same allocation.
typedef struct FaultFile {
    sqlite3_file base;
    sqlite3_file *real;
    int affected;
} FaultFile;

static sqlite3_vfs fault_vfs;
static sqlite3_vfs *real_vfs;
static pthread_mutex_t fault_lock = PTHREAD_MUTEX_INITIALIZER;
static char *fault_prefix;
static long writes_left = -1;
static long write_count;
static long refused_count;

static int is_affected(const char *path) {
    int affected = 0;
    pthread_mutex_lock(&fault_lock);
    if (path && fault_prefix) affected = strncmp(path, fault_prefix, strlen(fault_prefix)) == 0;
    pthread_mutex_unlock(&fault_lock);
    return affected;
}

/// Counts a write to an affected file; returns whether it may go ahead.
static int take_write(void) {
    int allowed = 1;
    pthread_mutex_lock(&fault_lock);
    if (writes_left == 0) {
        allowed = 0;
        refused_count++;
    } else {
        if (writes_left > 0) writes_left--;
        write_count++;
    }
    pthread_mutex_unlock(&fault_lock);
    return allowed;
}

#define REAL(file) (((FaultFile *)(file))->real)
#define AFFECTED(file) (((FaultFile *)(file))->affected)

static int fault_close(sqlite3_file *file) {
    int rc = REAL(file)->pMethods->xClose(REAL(file));
    file->pMethods = 0;
    return rc;
}

static int fault_read(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    return REAL(file)->pMethods->xRead(REAL(file), buffer, amount, offset);
}

static int fault_write(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    if (AFFECTED(file) && !take_write()) return SQLITE_FULL;
    return REAL(file)->pMethods->xWrite(REAL(file), buffer, amount, offset);
}

static int fault_truncate(sqlite3_file *file, sqlite3_int64 size) {
    return REAL(file)->pMethods->xTruncate(REAL(file), size);
}

static int fault_sync(sqlite3_file *file, int flags) {
    return REAL(file)->pMethods->xSync(REAL(file), flags);
}

static int fault_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    return REAL(file)->pMethods->xFileSize(REAL(file), size);
}

static int fault_lock_file(sqlite3_file *file, int level) {
    return REAL(file)->pMethods->xLock(REAL(file), level);
}

static int fault_unlock_file(sqlite3_file *file, int level) {
    return REAL(file)->pMethods->xUnlock(REAL(file), level);
}

static int fault_check_reserved_lock(sqlite3_file *file, int *result) {
    return REAL(file)->pMethods->xCheckReservedLock(REAL(file), result);
}

static int fault_file_control(sqlite3_file *file, int op, void *argument) {
    // Growing a file ahead of writes needs space as much as writing does.
    if (op == SQLITE_FCNTL_SIZE_HINT && AFFECTED(file)) {
        pthread_mutex_lock(&fault_lock);
        int full = writes_left == 0;
        pthread_mutex_unlock(&fault_lock);
        if (full) return SQLITE_FULL;
    }
    return REAL(file)->pMethods->xFileControl(REAL(file), op, argument);
}

static int fault_sector_size(sqlite3_file *file) {
    return REAL(file)->pMethods->xSectorSize(REAL(file));
}

static int fault_device_characteristics(sqlite3_file *file) {
    return REAL(file)->pMethods->xDeviceCharacteristics(REAL(file));
}

static int fault_shm_map(sqlite3_file *file, int page, int size, int extend, void volatile **memory) {
    return REAL(file)->pMethods->xShmMap(REAL(file), page, size, extend, memory);
}

static int fault_shm_lock(sqlite3_file *file, int offset, int count, int flags) {
    return REAL(file)->pMethods->xShmLock(REAL(file), offset, count, flags);
}

static void fault_shm_barrier(sqlite3_file *file) {
    REAL(file)->pMethods->xShmBarrier(REAL(file));
}

static int fault_shm_unmap(sqlite3_file *file, int delete_flag) {
    return REAL(file)->pMethods->xShmUnmap(REAL(file), delete_flag);
}

static int fault_fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **pointer) {
    return REAL(file)->pMethods->xFetch(REAL(file), offset, amount, pointer);
}

static int fault_unfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer) {
    return REAL(file)->pMethods->xUnfetch(REAL(file), offset, pointer);
}

static const sqlite3_io_methods fault_methods = {
    3,
    fault_close,
    fault_read,
    fault_write,
    fault_truncate,
    fault_sync,
    fault_file_size,
    fault_lock_file,
    fault_unlock_file,
    fault_check_reserved_lock,
    fault_file_control,
    fault_sector_size,
    fault_device_characteristics,
    fault_shm_map,
    fault_shm_lock,
    fault_shm_barrier,
    fault_shm_unmap,
    fault_fetch,
    fault_unfetch,
};

static int fault_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *file, int flags, int *out_flags) {
    (void)vfs;
    FaultFile *fault = (FaultFile *)file;
    fault->real = (sqlite3_file *)&fault[1];
    fault->affected = is_affected(name);
    int rc = real_vfs->xOpen(real_vfs, name, fault->real, flags, out_flags);
    // Only an opened file gets methods: SQLite calls xClose on a file whose pMethods is set.
    file->pMethods = fault->real->pMethods ? &fault_methods : 0;
    return rc;
}

static int fault_delete(sqlite3_vfs *vfs, const char *name, int sync_directory) {
    (void)vfs;
    return real_vfs->xDelete(real_vfs, name, sync_directory);
}

static int fault_access(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    (void)vfs;
    return real_vfs->xAccess(real_vfs, name, flags, result);
}

static int fault_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *output) {
    (void)vfs;
    return real_vfs->xFullPathname(real_vfs, name, size, output);
}

static void *fault_dl_open(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return real_vfs->xDlOpen(real_vfs, name);
}

static void fault_dl_error(sqlite3_vfs *vfs, int size, char *message) {
    (void)vfs;
    real_vfs->xDlError(real_vfs, size, message);
}

static void (*fault_dl_sym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return real_vfs->xDlSym(real_vfs, handle, symbol);
}

static void fault_dl_close(sqlite3_vfs *vfs, void *handle) {
    (void)vfs;
    real_vfs->xDlClose(real_vfs, handle);
}

static int fault_randomness(sqlite3_vfs *vfs, int size, char *output) {
    (void)vfs;
    return real_vfs->xRandomness(real_vfs, size, output);
}

static int fault_sleep(sqlite3_vfs *vfs, int microseconds) {
    (void)vfs;
    return real_vfs->xSleep(real_vfs, microseconds);
}

static int fault_current_time(sqlite3_vfs *vfs, double *time) {
    (void)vfs;
    return real_vfs->xCurrentTime(real_vfs, time);
}

static int fault_get_last_error(sqlite3_vfs *vfs, int size, char *message) {
    (void)vfs;
    return real_vfs->xGetLastError(real_vfs, size, message);
}

static int fault_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *time) {
    (void)vfs;
    return real_vfs->xCurrentTimeInt64(real_vfs, time);
}

static int install_result = SQLITE_ERROR;

static void install_once(void) {
    real_vfs = sqlite3_vfs_find(0);
    if (!real_vfs) return;
    fault_vfs.iVersion = 2;
    fault_vfs.szOsFile = (int)sizeof(FaultFile) + real_vfs->szOsFile;
    fault_vfs.mxPathname = real_vfs->mxPathname;
    fault_vfs.zName = "quire-faults";
    fault_vfs.xOpen = fault_open;
    fault_vfs.xDelete = fault_delete;
    fault_vfs.xAccess = fault_access;
    fault_vfs.xFullPathname = fault_full_pathname;
    fault_vfs.xDlOpen = fault_dl_open;
    fault_vfs.xDlError = fault_dl_error;
    fault_vfs.xDlSym = fault_dl_sym;
    fault_vfs.xDlClose = fault_dl_close;
    fault_vfs.xRandomness = fault_randomness;
    fault_vfs.xSleep = fault_sleep;
    fault_vfs.xCurrentTime = fault_current_time;
    fault_vfs.xGetLastError = fault_get_last_error;
    fault_vfs.xCurrentTimeInt64 = fault_current_time_int64;
    install_result = sqlite3_vfs_register(&fault_vfs, 1);
}

int quire_faults_install(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install_once);
    return install_result;
}

void quire_faults_set_prefix(const char *prefix) {
    pthread_mutex_lock(&fault_lock);
    free(fault_prefix);
    fault_prefix = prefix ? strdup(prefix) : 0;
    pthread_mutex_unlock(&fault_lock);
}

void quire_faults_fail_writes_after(long writes) {
    pthread_mutex_lock(&fault_lock);
    writes_left = writes < 0 ? -1 : writes;
    pthread_mutex_unlock(&fault_lock);
}

long quire_faults_write_count(void) {
    pthread_mutex_lock(&fault_lock);
    long count = write_count;
    pthread_mutex_unlock(&fault_lock);
    return count;
}

long quire_faults_refused_count(void) {
    pthread_mutex_lock(&fault_lock);
    long count = refused_count;
    pthread_mutex_unlock(&fault_lock);
    return count;
}
