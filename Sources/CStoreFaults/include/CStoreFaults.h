#ifndef QUIRE_STORE_FAULTS_H
#define QUIRE_STORE_FAULTS_H

/// A SQLite VFS for tests that makes writes fail as on a full disk, deterministically and without
/// root: it wraps the default VFS, becomes the default itself, and affects only files whose path
/// starts with a chosen prefix (a test's temporary folder), so that other tests in the same
/// process are untouched.

/// Installs the VFS as the default (once; later calls do nothing). Returns SQLITE_OK or an error code.
int quire_faults_install(void);

/// Files whose path starts with `prefix` are affected from now on (NULL: none).
void quire_faults_set_prefix(const char *prefix);

/// After `writes` more successful writes to affected files, every write fails with SQLITE_FULL
/// (the disk is full) until the limit is lifted with a negative value.
void quire_faults_fail_writes_after(long writes);

/// The number of writes to affected files since the VFS was installed.
long quire_faults_write_count(void);

/// The number of writes refused so far.
long quire_faults_refused_count(void);

#endif
