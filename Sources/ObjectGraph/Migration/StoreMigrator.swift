import CSQLite
import Foundation

/// Migrates a store file to the current schema of a plan, so that a kill at any instant either
/// resumes or leaves the original untouched.
///
///     let migrator = StoreMigrator(plan: plan, store: url)
///     switch try migrator.status() {
///     case .needed, .interrupted:
///         let outcome = try await migrator.run { progress in ... }   // off the calling thread
///     case .unknownSchema: // newer program: open read-only at most
///     default: break
///     }
///
/// How it works (see `Migration/README` in the module's README for the whole story):
/// 1. **Preflight**: the free space must hold a working copy of the store and what the stages add
///    (``requiredSpace(for:stages:)``); otherwise ``MigrationError/insufficientSpace(path:required:available:)``
///    and nothing is created.
/// 2. **Copy**: with an exclusive lock on the original (so that no other connection has it open),
///    its write-ahead log is checkpointed and the SQLite backup API copies it into the workspace
///    (`.NAME.migration/` beside it). The original's fingerprint goes into the copy.
/// 3. **Stages** run on the copy, each step a transaction that records the next step
///    (``MigrationState``); custom stages transform rows in batches with a checkpoint.
/// 4. **Validation** of the copy (``MigrationValidator``), against the original too.
/// 5. **Swap**: again with the exclusive lock and only while the original's fingerprint is
///    unchanged, the original gets a second name in the backup folder (a hard link: no copy, and
///    the backup is the original file itself) and the copy is renamed over it, atomically.
///
/// The original is never written (beyond the checkpoint of its own log); the workspace is removed
/// at the end, and after a failure. A kill leaves the workspace, and the next run resumes from the
/// copy's recorded state, or makes a new copy when the original changed since.
public struct StoreMigrator: Sendable {
    /// The schemas and stages.
    public let plan: MigrationPlan
    /// The store file.
    public let store: URL
    /// Where the working copy and the backup go, and how free space is measured.
    public var options: MigrationOptions

    /// A migrator for the store at `url`.
    public init(plan: MigrationPlan, store url: URL, options: MigrationOptions = MigrationOptions()) {
        self.plan = plan
        store = url.standardizedFileURL
        self.options = options
    }

    private var storePath: String { store.path }
    /// The folder of the working copy: `.NAME.migration` beside the store unless the options say otherwise.
    public var workspace: URL {
        options.workspace ?? store.deletingLastPathComponent().appendingPathComponent(".\(store.lastPathComponent).migration")
    }
    /// The folder backups go to: `NAME backups` beside the store unless the options say otherwise.
    public var backupFolder: URL {
        options.backupFolder ?? store.deletingLastPathComponent().appendingPathComponent("\(store.lastPathComponent) backups")
    }
    private var workingPath: String { workspace.appendingPathComponent("working.sqlite").path }
    private var partialPath: String { workspace.appendingPathComponent("copy.partial").path }
    private var lockPath: String { workspace.appendingPathComponent("lock").path }

    // MARK: Status

    /// What the store needs, found without writing anything.
    public func status() throws -> MigrationStatus {
        guard StoreFiles.exists(storePath), let metadata = try PersistentStore.metadata(at: store) else { return .missing }
        let stages: ArraySlice<MigrationStage>
        do {
            stages = try plan.stages(from: metadata.schema)
        } catch MigrationError.unknownSchema(let found, let current) {
            return .unknownSchema(found: found, current: current)
        }
        if stages.isEmpty { return .upToDate }
        if StoreFiles.exists(workingPath) {
            // A copy whose journal must first be rolled back cannot be read here; running tells.
            let state = (try? WorkingCopy(path: workingPath, readOnly: true)).flatMap { copy in
                (try? isResumable(copy, metadata: metadata, stages: stages)) == true ? try? copy.state() : nil
            }
            if let state { return .interrupted(from: metadata.schema, state: state) }
        } else if StoreFiles.exists(partialPath) {
            return .interrupted(from: metadata.schema, state: .preparing)
        }
        return .needed(from: metadata.schema, stages: stages.count)
    }

    /// The free space a migration of a store of `size` bytes through `stages` needs: the working
    /// copy, plus a second copy of the data when a stage rebuilds tables or full-text indexes (the
    /// old pages stay in the file until the transaction ends) or else a quarter for new columns and
    /// indexes, plus 8 MB for journals.
    public static func requiredSpace(for size: Int64, stages: some Collection<MigrationStage>) throws -> Int64 {
        var rewrites = false
        for stage in stages {
            let difference = try stage.difference()
            if difference.tables.contains(where: \.isRebuilt) || !difference.rebuiltFullText.isEmpty
                || difference.tables.contains(where: \.isRenamed) {
                rewrites = true
            }
        }
        return size + (rewrites ? size : size / 4) + 8 * 1_048_576
    }

    // MARK: Running

    /// Migrates on a thread of its own; `progress` is called from that thread.
    public func run(progress: @escaping @Sendable (MigrationProgress) -> Void = { _ in }) async throws -> MigrationOutcome {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try self.runNow(progress: progress) })
            }
            thread.name = "objectgraph.migration"
            thread.start()
        }
    }

    /// Migrates on the calling thread (never the main thread of an app).
    public func runNow(progress: @escaping @Sendable (MigrationProgress) -> Void = { _ in }) throws -> MigrationOutcome {
        do {
            return try runOnce(progress: progress)
        } catch MigrationError.storeChanged {
            // Another program wrote to the original meanwhile; its copy is gone, so start again once.
            return try runOnce(progress: progress)
        }
    }

    private func runOnce(progress: @escaping @Sendable (MigrationProgress) -> Void) throws -> MigrationOutcome {
        guard StoreFiles.exists(storePath), let metadata = try PersistentStore.metadata(at: store) else {
            return MigrationOutcome(from: nil, to: currentVersion, stagesRun: 0, resumed: false, backup: nil)
        }
        let stages = try plan.stages(from: metadata.schema)
        guard !stages.isEmpty else {
            try removeWorkspace()
            return MigrationOutcome(from: metadata.schema, to: currentVersion, stagesRun: 0, resumed: false, backup: nil)
        }
        let reporter = ProgressReporter(stageCount: stages.count, report: progress)

        let hadWorkspace = StoreFiles.exists(workspace.path)
        if !hadWorkspace { try preflight(stages) }
        try StoreFiles.createFolder(workspace.path)
        guard let lock = try FileLock(path: lockPath) else { throw MigrationError.storeInUse(path: storePath) }
        var copy = try resumableCopy(metadata: metadata, stages: stages)
        let resumed = copy != nil
        do {
            if copy == nil {
                if hadWorkspace { try preflight(stages) }
                copy = try prepare(metadata: metadata, stages: stages, reporter: reporter)
            }
            var backup = try migrate(copy!, stages: Array(stages), reporter: reporter)
            copy = nil
            backup = try swap(metadata: metadata, backupName: backup, reporter: reporter)
            try removeWorkspace()
            withExtendedLifetime(lock) {}
            MigrationPoint.reach("finished")
            reporter.report(.finished, 1, 1)
            return MigrationOutcome(
                from: metadata.schema, to: currentVersion, stagesRun: stages.count, resumed: resumed,
                backup: backupFolder.appendingPathComponent(backup))
        } catch MigrationError.storeInUse(let path) {
            // A copy stays (validated, or where it stopped) for the next run.
            copy = nil
            if !StoreFiles.exists(workingPath) { try? removeWorkspace() }
            throw MigrationError.storeInUse(path: path)
        } catch {
            copy = nil
            try? discardCopy()
            try? removeWorkspace()
            throw error
        }
    }

    private var currentVersion: SchemaVersion {
        SchemaVersion(version: plan.current.version, checksum: plan.current.checksum)
    }

    // MARK: Steps

    private func preflight(_ stages: ArraySlice<MigrationStage>) throws {
        let size = (StoreFiles.size(of: storePath) ?? 0) + (StoreFiles.size(of: storePath + "-wal") ?? 0)
        var required = try Self.requiredSpace(for: size, stages: stages)
        if !canLinkBackup() { required += size }
        let folder = store.deletingLastPathComponent().path
        let available = try options.availableSpace(folder)
        guard available >= required else {
            throw MigrationError.insufficientSpace(path: storePath, required: required, available: available)
        }
    }

    /// Whether the backup folder is on the store's file system (a hard link needs no space).
    private func canLinkBackup() -> Bool {
        var folder = backupFolder.path
        while !StoreFiles.exists(folder) && folder != "/" { folder = (folder as NSString).deletingLastPathComponent }
        var folderStatus = stat()
        var storeStatus = stat()
        return stat(folder, &folderStatus) == 0 && stat(storePath, &storeStatus) == 0 && folderStatus.st_dev == storeStatus.st_dev
    }

    /// The original opened for writing with an exclusive lock: no other connection may have it
    /// open. Its write-ahead log is checkpointed and emptied.
    private func lockOriginal() throws -> SQLiteConnection {
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

    private func prepare(
        metadata: StoreMetadata, stages: ArraySlice<MigrationStage>, reporter: ProgressReporter
    ) throws -> WorkingCopy {
        reporter.report(.preparing, 0, 1)
        MigrationPoint.reach("copy.started")
        try discardCopy()
        let fingerprint: StoreFingerprint
        do {
            let original = try lockOriginal()
            fingerprint = try StoreFingerprint(path: storePath)
            let destination = try SQLiteConnection(path: partialPath, readOnly: false, create: true)
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
                try copy.setMetadata(MigrationKey.stagePath, .string(Self.stagePath(stages)))
                try copy.record(.migrating(stage: 0, step: .structure))
            }
        }
        try StoreFiles.move(partialPath, to: workingPath)
        MigrationPoint.reach("prepared")
        return try WorkingCopy(path: workingPath)
    }

    /// Runs the stages from where the copy stands, then validates it; returns the backup's file name.
    private func migrate(_ copy: WorkingCopy, stages: [MigrationStage], reporter: ProgressReporter) throws -> String {
        var state = try copy.state()
        while case .migrating(let number, let step) = state {
            let runner = try StageRunner(copy: copy, stage: stages[number], number: number, stageCount: stages.count) { phase, done, total in
                reporter.report(phase, done, total)
            }
            try runner.run(from: step)
            state = number + 1 < stages.count ? .migrating(stage: number + 1, step: .structure) : .validating
            try copy.transaction { try copy.record(state) }
        }
        if state == .validating {
            let validator = MigrationValidator(copy: copy, stages: stages, originalPath: storePath)
            reporter.report(.validating, 0, MigrationValidator.stepCount)
            try validator.validate { step in reporter.report(.validating, step, MigrationValidator.stepCount) }
            let name = backupName(from: stages[0].source.version)
            try copy.transaction {
                try copy.setMetadata(MigrationKey.backup, .string(name))
                try copy.record(.committed)
            }
            MigrationPoint.reach("validated")
            return name
        }
        guard let name = try copy.metadata(MigrationKey.backup)?.stringValue else {
            throw MigrationError.validationFailed(stage: nil, problems: [MigrationProblem(message: "the committed copy names no backup")])
        }
        return name
    }

    /// `NAME-vN-yyyyMMdd-HHmmss.EXT`: the store's name, the version it holds and the time.
    private func backupName(from version: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let name = store.deletingPathExtension().lastPathComponent
        let pathExtension = store.pathExtension.isEmpty ? "" : "." + store.pathExtension
        return "\(name)-v\(version)-\(formatter.string(from: Date()))\(pathExtension)"
    }

    /// Replaces the original with the validated copy and keeps the original as the backup.
    private func swap(metadata: StoreMetadata, backupName: String, reporter: ProgressReporter) throws -> String {
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
    private func keepOriginal(_ original: SQLiteConnection, as backupPath: String) throws {
        do {
            try StoreFiles.link(storePath, to: backupPath)
        } catch let error as FileOperationError where error.code == EEXIST {
            // A run killed after linking: the name must be the original's.
            var existing = stat()
            var current = stat()
            guard stat(backupPath, &existing) == 0, stat(storePath, &current) == 0,
                  existing.st_dev == current.st_dev, existing.st_ino == current.st_ino else { throw error }
        } catch let error as FileOperationError where [EXDEV, EPERM, EMLINK, ENOTSUP, EOPNOTSUPP].contains(error.code) {
            let partial = backupPath + ".partial"
            try StoreFiles.removeIfPresent(partial)
            let destination = try SQLiteConnection(path: partial, readOnly: false, create: true)
            try SQLiteBackup.copy(from: original, to: destination)
            try destination.execute("PRAGMA journal_mode = DELETE")
            try StoreFiles.synchronizeFile(partial)
            try StoreFiles.move(partial, to: backupPath)
        }
    }

    // MARK: The workspace

    private static func stagePath(_ stages: ArraySlice<MigrationStage>) -> String {
        stages.map(\.destination.checksum).joined(separator: ",")
    }

    /// The working copy left by an interrupted run, if it can go on: it belongs to this original,
    /// unchanged since, and to the same stages. Anything else is discarded.
    private func resumableCopy(metadata: StoreMetadata, stages: ArraySlice<MigrationStage>) throws -> WorkingCopy? {
        try StoreFiles.removeIfPresent(partialPath)
        try StoreFiles.removeIfPresent(partialPath + "-journal")
        guard StoreFiles.exists(workingPath) else { return nil }
        if let copy = try? WorkingCopy(path: workingPath), (try? isResumable(copy, metadata: metadata, stages: stages)) == true {
            return copy
        }
        try discardCopy()
        return nil
    }

    private func isResumable(_ copy: WorkingCopy, metadata: StoreMetadata, stages: ArraySlice<MigrationStage>) throws -> Bool {
        guard try copy.state() != .preparing,
              try copy.metadata(MigrationKey.sourceChecksum)?.stringValue == metadata.schema.checksum,
              try copy.metadata(MigrationKey.stagePath)?.stringValue == Self.stagePath(stages),
              let recorded = try copy.metadata(MigrationKey.fingerprint)?.stringValue.flatMap(StoreFingerprint.init(text:))
        else { return false }
        return recorded == (try StoreFingerprint(path: storePath))
    }

    /// Removes the working copy and its journal (the migration's own files, never the writer's).
    private func discardCopy() throws {
        for path in [workingPath, workingPath + "-journal", partialPath, partialPath + "-journal"] {
            try StoreFiles.removeIfPresent(path)
        }
    }

    private func removeWorkspace() throws {
        guard StoreFiles.exists(workspace.path) else { return }
        try discardCopy()
        try StoreFiles.removeIfPresent(lockPath)
        guard rmdir(workspace.path) == 0 || errno == ENOENT else {
            throw FileOperationError(operation: "rmdir", path: workspace.path, code: errno)
        }
    }
}

/// What a finished migration did.
public struct MigrationOutcome: Sendable, Hashable {
    /// The schema the store had (nil when there was no store).
    public var from: SchemaVersion?
    /// The schema it has now.
    public var to: SchemaVersion
    /// The stages run (0 when the store was up to date).
    public var stagesRun: Int
    /// Whether an interrupted migration was resumed.
    public var resumed: Bool
    /// The original store, kept as the backup (nil when nothing was migrated).
    public var backup: URL?
}

/// Where a migration works and how it measures free space.
public struct MigrationOptions: Sendable {
    /// The folder of the working copy; nil: `.NAME.migration` beside the store.
    public var workspace: URL?
    /// The folder backups go to; nil: `NAME backups` beside the store.
    public var backupFolder: URL?
    /// The free bytes of the file system holding a path; `statvfs` unless a test says otherwise.
    public var availableSpace: @Sendable (String) throws -> Int64

    /// Options; by default the workspace and backups sit beside the store.
    public init(
        workspace: URL? = nil, backupFolder: URL? = nil,
        availableSpace: @escaping @Sendable (String) throws -> Int64 = StoreFiles.availableSpace(at:)
    ) {
        self.workspace = workspace
        self.backupFolder = backupFolder
        self.availableSpace = availableSpace
    }
}

/// Turns each phase's progress into the whole migration's share done, never going back.
private final class ProgressReporter: @unchecked Sendable {
    let stageCount: Int
    let report: @Sendable (MigrationProgress) -> Void
    // Only the migrating thread reports.
    private var highest = 0.0

    init(stageCount: Int, report: @escaping @Sendable (MigrationProgress) -> Void) {
        self.stageCount = stageCount
        self.report = report
    }

    // Shares of the whole: copying 15%, the stages 65% (evenly), validating 15%, the swap 5%.
    func report(_ phase: MigrationProgress.Phase, _ done: Int64, _ total: Int64) {
        let share = total > 0 ? min(1, Double(done) / Double(total)) : 1
        let fraction: Double
        switch phase {
        case .preparing: fraction = 0.15 * share
        case .migrating(let stage, let count, _): fraction = 0.15 + 0.65 * (Double(stage) + share) / Double(max(1, count))
        case .validating: fraction = 0.80 + 0.15 * share
        case .committing: fraction = 0.95 + 0.05 * share
        case .finished: fraction = 1
        }
        highest = max(highest, fraction)
        report(MigrationProgress(phase: phase, completed: done, total: total, fractionCompleted: highest))
    }
}
