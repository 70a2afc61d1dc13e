import CSQLite

/// Copies a whole database with SQLite's online backup API: page by page, consistent (the copy is
/// one snapshot of the source), and readable by SQLite only when the source is.
enum SQLiteBackup {
    /// Copies `source`'s main database into `destination`'s, `pagesPerStep` pages at a time,
    /// calling `progress(copied, total)` after each step.
    static func copy(
        from source: SQLiteConnection, to destination: SQLiteConnection, pagesPerStep: Int32 = 1024,
        progress: (Int64, Int64) -> Void = { _, _ in }
    ) throws {
        guard let backup = sqlite3_backup_init(destination.handle, "main", source.handle, "main") else {
            throw destination.error(code: sqlite3_errcode(destination.handle), statement: "sqlite3_backup_init")
        }
        var code: Int32
        repeat {
            code = sqlite3_backup_step(backup, pagesPerStep)
            let total = Int64(sqlite3_backup_pagecount(backup))
            progress(total - Int64(sqlite3_backup_remaining(backup)), total)
        } while code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED
        // `finish` reports the step's error too; the step's code tells which connection failed.
        let finish = sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE, finish == SQLITE_OK else {
            let failed = code == SQLITE_DONE ? finish : code
            let sourceFailed = sqlite3_errcode(source.handle) == failed & 0xff
            throw (sourceFailed ? source : destination).error(code: failed, statement: "sqlite3_backup_step")
        }
    }
}
