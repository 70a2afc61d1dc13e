import Foundation

/// The migration's workspace (`.NAME.migration` beside the store): the working copy an interrupted
/// run left, whether it can go on, and removing it. Only the migration's own files are ever removed.
extension StoreMigrator {
    /// The record of the planned stages a working copy keeps: their destination checksums, and
    /// which stages' transforms run in a later stage (``TransformSchedule/signature``) when any do.
    static func stagePath(_ stages: ArraySlice<MigrationStage>) throws -> String {
        let checksums = stages.map(\.destination.checksum).joined(separator: ",")
        let carried = try TransformSchedule(stages: Array(stages)).signature
        return carried.isEmpty ? checksums : "\(checksums);carried \(carried)"
    }

    /// The working copy left by an interrupted run, if it can go on: it belongs to this original,
    /// unchanged since, and to the same stages. Anything else is discarded.
    func resumableCopy(metadata: StoreMetadata, stages: ArraySlice<MigrationStage>) throws -> WorkingCopy? {
        try StoreFiles.removeIfPresent(partialPath)
        try StoreFiles.removeIfPresent(partialPath + "-journal")
        guard StoreFiles.exists(workingPath) else { return nil }
        if let copy = try? WorkingCopy(path: workingPath), (try? isResumable(copy, metadata: metadata, stages: stages)) == true {
            return copy
        }
        try discardCopy()
        return nil
    }

    func isResumable(_ copy: WorkingCopy, metadata: StoreMetadata, stages: ArraySlice<MigrationStage>) throws -> Bool {
        guard try copy.state() != .preparing,
              try copy.metadata(MigrationKey.sourceChecksum)?.stringValue == metadata.schema.checksum,
              try copy.metadata(MigrationKey.stagePath)?.stringValue == (try Self.stagePath(stages)),
              let recorded = try copy.metadata(MigrationKey.fingerprint)?.stringValue.flatMap(StoreFingerprint.init(text:))
        else { return false }
        return recorded == (try StoreFingerprint(path: storePath))
    }

    /// Removes the working copy and its journal or log (the migration's own files, never the
    /// writer's). The copy goes first: a log without its copy is only ever removed (`prepare`
    /// discards before it moves a new copy in, which would otherwise read a stale log).
    func discardCopy() throws {
        for path in [workingPath, workingPath + "-journal", workingPath + "-wal", workingPath + "-shm",
                     partialPath, partialPath + "-journal"] {
            try StoreFiles.removeIfPresent(path)
        }
    }

    func removeWorkspace() throws {
        guard StoreFiles.exists(workspace.path) else { return }
        try discardCopy()
        try StoreFiles.removeIfPresent(lockPath)
        guard rmdir(workspace.path) == 0 || errno == ENOENT else {
            throw FileOperationError(operation: "rmdir", path: workspace.path, code: errno)
        }
    }
}
