import CSQLite
import Foundation
import Platform

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
/// How it works (see "Migrating a store" in the module's README):
/// 1. **Plan**, holding the workspace's lock: the stages are chosen from the store's schema as
///    read once the lock is held, so of two openers one migrates and the other, even if it looked
///    at the store before the first finished, finds it up to date (or ``MigrationError/storeInUse(path:)``
///    while the first runs). **Preflight**: the free space must hold a working copy of the store
///    and what the stages add (``requiredSpace(for:stages:)``); otherwise
///    ``MigrationError/insufficientSpace(path:required:available:)`` and nothing is left behind.
/// 2. **Copy**: with an exclusive lock on the original (so that no other connection has it open),
///    its write-ahead log is checkpointed and the SQLite backup API copies it into the workspace
///    (`.NAME.migration/` beside it; the partial copy without a journal or syncs of its own, the
///    copy's first transaction syncs it). The original's fingerprint goes into the copy.
/// 3. **Stages** run on the copy, each step a transaction that records the next step
///    (``MigrationState``); custom stages transform rows in batches with a checkpoint, committed
///    into a write-ahead log without a sync each (a power cut may cost the last batches, never
///    half of one).
/// 4. **Validation** of the copy (``MigrationValidator``), against the original too; full-text
///    indexes are checked against their rows where a stage wrote them (any other is the original's).
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

    var storePath: String { store.path }
    /// The folder of the working copy: `.NAME.migration` beside the store unless the options say otherwise.
    public var workspace: URL {
        options.workspace ?? store.deletingLastPathComponent().appendingPathComponent(".\(store.lastPathComponent).migration")
    }
    /// The folder backups go to: `NAME backups` beside the store unless the options say otherwise.
    public var backupFolder: URL {
        options.backupFolder ?? store.deletingLastPathComponent().appendingPathComponent("\(store.lastPathComponent) backups")
    }
    var workingPath: String { workspace.appendingPathComponent("working.sqlite").path }
    var partialPath: String { workspace.appendingPathComponent("copy.partial").path }
    var lockPath: String { workspace.appendingPathComponent("lock").path }

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
        guard let firstLook = try storeMetadata() else { return upToDate(from: nil) }
        guard !(try plan.stages(from: firstLook.schema).isEmpty) else {
            try removeWorkspace()
            return upToDate(from: firstLook.schema)
        }
        try StoreFiles.createFolder(workspace.path)
        guard let lock = try FileLock(path: lockPath) else { throw MigrationError.storeInUse(path: storePath) }
        // Planned again under the lock: another opener may have migrated the store since the first
        // look, and running the stages again over its result would fail (or worse, apply twice).
        guard let metadata = try storeMetadata() else {
            try removeWorkspace()
            return upToDate(from: nil)
        }
        let stages = try plan.stages(from: metadata.schema)
        guard !stages.isEmpty else {
            try removeWorkspace()
            return upToDate(from: metadata.schema)
        }
        let reporter = MigrationProgressReporter(stageCount: stages.count, report: progress)
        var copy = try resumableCopy(metadata: metadata, stages: stages)
        let resumed = copy != nil
        do {
            if copy == nil {
                try preflight(stages)
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

    private func storeMetadata() throws -> StoreMetadata? {
        guard StoreFiles.exists(storePath) else { return nil }
        return try PersistentStore.metadata(at: store)
    }

    /// The outcome when there was nothing to run.
    private func upToDate(from schema: SchemaVersion?) -> MigrationOutcome {
        MigrationOutcome(from: schema, to: currentVersion, stagesRun: 0, resumed: false, backup: nil)
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

    /// Runs the stages from where the copy stands, then validates it; returns the backup's file name.
    private func migrate(_ copy: WorkingCopy, stages: [MigrationStage], reporter: MigrationProgressReporter) throws -> String {
        var state = try copy.state()
        let schedule = try TransformSchedule(stages: stages)
        while case .migrating(let number, let step) = state {
            let runner = StageRunner(copy: copy, schedule: schedule, number: number) { phase, done, total in
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
}
