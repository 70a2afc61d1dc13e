import Synchronization

/// Turns each phase's progress into the whole migration's share done, never going back.
final class MigrationProgressReporter: Sendable {
    let stageCount: Int
    let report: @Sendable (MigrationProgress) -> Void
    /// The largest share reported so far (the migrating thread reports; the lock keeps it checked).
    private let highest = Mutex(0.0)

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
        let reached = highest.withLock { highest in
            highest = max(highest, fraction)
            return highest
        }
        report(MigrationProgress(phase: phase, completed: done, total: total, fractionCompleted: reached))
    }
}
