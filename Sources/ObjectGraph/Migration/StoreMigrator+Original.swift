import CSQLite
import Foundation

/// What a migration does to the original store: lock it, copy it into the workspace, and at the
/// end swap the validated copy in, keeping the original as the backup (a hard link where the file
/// system allows). The original is never written beyond the checkpoint of its own log.
extension StoreMigrator {
    /// The original opened for writing with an exclusive lock: no other connection may have it
    /// open. Its write-ahead log is checkpointed and emptied.
    func lockOriginal() throws -> SQLiteConnection {
        if StoreFiles.isReadOnlyFileSystem(at: storePath) {
            throw MigrationError.storeNotWritable(path: storePath, reason: "its file system is read-only")
        }
        if access(store.deletingLastPathComponent().path, W_OK) != 0 {
            throw MigrationError.storeNotWritable(path: storePath, reason: "its folder cannot be written")
        }
        let original = try SQLiteConnection(path: storePath, readOnly: false, create: false)
        guard sqlite3_db_readonly(original.handle, "main") == 0 else {
            throw MigrationError.storeNotWritable(path: storePath, reason: "the file cannot be written")
        }
        sqlite3_busy_timeout(original.handle, 1000)
        try original.execute("PRAGMA locking_mode = EXCLUSIVE")
        do {
            try original.execute("BEGIN EXCLUSIVE")
            try original.execute("COMMIT")
        } catch let error as StoreError where error.kind == .busy {
            throw MigrationError.storeInUse(path: storePath)
        }
        try original.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return original
    }

    func prepare(
        metadata: StoreMetadata, stages: ArraySlice<MigrationStage>, reporter: MigrationProgressReporter
    ) throws -> WorkingCopy {
        reporter.report(.preparing, 0, 1)
        MigrationPoint.reach("copy.started")
        try discardCopy()
        let fingerprint: StoreFingerprint
        do {
            let original = try lockOriginal()
            fingerprint = try StoreFingerprint(path: storePath)
            let destination = try SQLiteConnection(path: partialPath, readOnly: false, create: true)
            // The partial copy is thrown away unless it is whole: each step of the copy needs no
            // journal and no sync of its own. The first transaction of the working copy below
            // (full syncs) writes it to disk before it gets its name.
            try destination.execute("PRAGMA journal_mode = OFF")
            try destination.execute("PRAGMA synchronous = OFF")
            try SQLiteBackup.copy(from: original, to: destination) { copied, total in
                reporter.report(.preparing, copied, total)
            }
        }
        MigrationPoint.reach("copy.finished")
        do {
            let copy = try WorkingCopy(path: partialPath)
            try copy.transaction {
                try copy.setMetadata(MigrationKey.fingerprint, .string(fingerprint.text))
                try copy.setMetadata(MigrationKey.sourceChecksum, .string(metadata.schema.checksum))
                try copy.setMetadata(MigrationKey.stagePath, .string(try Self.stagePath(stages)))
                try copy.record(.migrating(stage: 0, step: .structure))
            }
        }
        try StoreFiles.move(partialPath, to: workingPath)
        MigrationPoint.reach("prepared")
        return try WorkingCopy(path: workingPath)
    }

    /// `NAME-vN-yyyyMMdd-HHmmss.EXT`: the store's name, the version it holds and the time.
    func backupName(from version: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let name = store.deletingPathExtension().lastPathComponent
        let pathExtension = store.pathExtension.isEmpty ? "" : "." + store.pathExtension
        return "\(name)-v\(version)-\(formatter.string(from: Date()))\(pathExtension)"
    }

    /// Replaces the original with the validated copy and keeps the original as the backup.
    func swap(metadata: StoreMetadata, backupName: String, reporter: MigrationProgressReporter) throws -> String {
        reporter.report(.committing, 0, 1)
        let original = try lockOriginal()
        let recorded = try WorkingCopy(path: workingPath).metadata(MigrationKey.fingerprint)?.stringValue.flatMap(StoreFingerprint.init(text:))
        guard recorded == (try StoreFingerprint(path: storePath)) else {
            throw MigrationError.storeChanged(path: storePath)
        }
        // The migrated store goes in as a store is kept (write-ahead log), so that opening it
        // needs no write.
        try SQLiteConnection(path: workingPath, readOnly: false, create: false).execute("PRAGMA journal_mode = WAL")
        // From here the original's connection must never delete the log by name: after the rename
        // the name belongs to the migrated store.
        var persist: Int32 = 1
        sqlite3_file_control(original.handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        MigrationPoint.reach("swap.locked")

        let backups = StoreBackups(folder: backupFolder)
        let backupPath = backupFolder.appendingPathComponent(backupName).path
        try StoreFiles.createFolder(backupFolder.path)
        try backups.add(StoreBackups.Entry(
            file: backupName, storeIdentifier: metadata.storeIdentifier, fromVersion: metadata.schema.version,
            toVersion: plan.current.version, created: Date(), daysUsed: []))
        try ExternalBinaryFolder(store: store).keepValues(in: ExternalBinaryFolder(store: URL(fileURLWithPath: backupPath)))
        try keepOriginal(original, as: backupPath)
        MigrationPoint.reach("swap.linked")
        try StoreFiles.synchronizeFile(workingPath)
        try StoreFiles.move(workingPath, to: storePath)
        MigrationPoint.reach("swap.renamed")
        reporter.report(.committing, 1, 1)
        return backupName
    }

    /// Gives the original a second name in the backup folder, or copies it there where links are
    /// not possible (another file system).
    func keepOriginal(_ original: SQLiteConnection, as backupPath: String) throws {
        do {
            try StoreFiles.link(storePath, to: backupPath)
        } catch let error as FileOperationError where error.code == EEXIST {
            // A run killed after linking: the name must be the original's.
            var existing = stat()
            var current = stat()
            guard stat(backupPath, &existing) == 0, stat(storePath, &current) == 0,
                  existing.st_dev == current.st_dev, existing.st_ino == current.st_ino else { throw error }
        } catch let error as FileOperationError where error.refusesHardLink {
            let partial = backupPath + ".partial"
            try StoreFiles.removeIfPresent(partial)
            let destination = try SQLiteConnection(path: partial, readOnly: false, create: true)
            try SQLiteBackup.copy(from: original, to: destination)
            try destination.execute("PRAGMA journal_mode = DELETE")
            try StoreFiles.synchronizeFile(partial)
            try StoreFiles.move(partial, to: backupPath)
        }
    }
}
