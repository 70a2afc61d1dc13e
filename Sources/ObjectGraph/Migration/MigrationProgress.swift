/// How far a migration has come, reported as it goes (from the thread running it).
///
///     try await migrator.run { progress in
///         Task { @MainActor in bar.fraction = progress.fractionCompleted; label.text = progress.phase.description }
///     }
public struct MigrationProgress: Sendable, Hashable {
    /// What the migration is doing.
    public enum Phase: Sendable, Hashable, CustomStringConvertible {
        /// Copying the original into the working copy (units: pages).
        case preparing
        /// Running stage `stage` (0-based) of `stageCount` (units: rows of its transforms, or 1).
        case migrating(stage: Int, stageCount: Int, label: String)
        /// Validating the migrated copy (units: checks).
        case validating
        /// Replacing the original with the copy and keeping the original as the backup.
        case committing
        /// Done.
        case finished

        public var description: String {
            switch self {
            case .preparing: return "Copying the library"
            case .migrating(let stage, let count, let label): return "Upgrading (step \(stage + 1) of \(count): \(label))"
            case .validating: return "Checking the upgraded library"
            case .committing: return "Switching to the upgraded library"
            case .finished: return "Upgrade finished"
            }
        }
    }

    /// What the migration is doing.
    public var phase: Phase
    /// Units done in this phase.
    public var completed: Int64
    /// Units in this phase.
    public var total: Int64
    /// The share of the whole migration done, from 0 to 1.
    public var fractionCompleted: Double

    /// Progress in `phase`.
    public init(phase: Phase, completed: Int64, total: Int64, fractionCompleted: Double) {
        self.phase = phase
        self.completed = completed
        self.total = total
        self.fractionCompleted = fractionCompleted
    }
}
