/// Where a migration stands, as the store being migrated records it durably (in the working copy's
/// `og_metadata`, in the same transaction as the work it describes):
///
///     idle → preparing → migrating(stage, step, checkpoint) → validating → committed
///
/// A migration killed at any instant leaves the original store untouched and the working copy in
/// one of these states; the next run reads it and resumes (``MigrationStatus/interrupted(_:)``), or
/// starts again from a fresh copy when the copy is unusable or the original changed since.
public enum MigrationState: Sendable, Hashable, CustomStringConvertible {
    /// No migration has started.
    case idle
    /// The original is being copied; an interrupted copy is discarded and made again.
    case preparing
    /// Stage `stage` (0-based) is at `step`.
    case migrating(stage: Int, step: MigrationStep)
    /// Every stage ran; the copy is being validated.
    case validating
    /// The copy was validated and replaces (or has replaced) the original.
    case committed

    public var description: String {
        switch self {
        case .idle: return "idle"
        case .preparing: return "preparing"
        case .migrating(let stage, let step): return "migrating (stage \(stage + 1), \(step))"
        case .validating: return "validating"
        case .committed: return "committed"
        }
    }
}

/// The steps of one stage; each ends with a commit of the working copy.
public enum MigrationStep: Sendable, Hashable, CustomStringConvertible {
    /// Tables, columns and join tables change (one transaction).
    case structure
    /// Pass `transform` over rows (the stage's own transforms, with any an earlier stage carried
    /// to it: `TransformSchedule`) has done every row with a key up to `checkpoint`.
    case transform(transform: Int, checkpoint: Int64)
    /// Removed columns and entities go, indexes and full-text tables are made (one transaction).
    case finish
    /// The stage's own checks run.
    case check

    public var description: String {
        switch self {
        case .structure: return "structure"
        case .transform(let transform, let checkpoint): return "transform \(transform + 1) after row \(checkpoint)"
        case .finish: return "finish"
        case .check: return "check"
        }
    }
}

/// The `og_metadata` keys a migration keeps in its working copy.
enum MigrationKey {
    static let state = "migration_state"
    static let stage = "migration_stage"
    static let step = "migration_step"
    static let transform = "migration_transform"
    static let checkpoint = "migration_checkpoint"
    /// The original's ``StoreFingerprint`` when it was copied.
    static let fingerprint = "migration_original_fingerprint"
    /// The checksum of the schema the original had.
    static let sourceChecksum = "migration_source_checksum"
    /// The destination checksums of the planned stages, comma-separated, and which stages'
    /// transforms run in a later stage: a plan (or a schedule) that changed between two runs (a
    /// newer program) starts again from a fresh copy.
    static let stagePath = "migration_stage_path"
    /// The file name the original gets in the backup folder, chosen once validated.
    static let backup = "migration_backup"
}
