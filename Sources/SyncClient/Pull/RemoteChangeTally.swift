import Library

/// What applying server versions did, counted for the summary and the status.
public struct RemoteChangeTally: Sendable, Hashable {
    /// Versions that became articles (created, updated, moved to the trash).
    public var taken = 0
    /// Versions merged cleanly with local edits.
    public var merged = 0
    /// Conflicts recorded for the writer (new ones and newer server versions of open ones).
    public var conflicts = 0
    /// Versions the library already had.
    public var unchanged = 0

    /// No counts.
    public init() {}

    mutating func count(_ outcome: Reconciler.Outcome) {
        switch outcome {
        case .unchanged: unchanged += 1
        case .taken, .bothDeleted: taken += 1
        case .merged: merged += 1
        case .conflict, .conflictUpdated: conflicts += 1
        }
    }

    static func + (lhs: RemoteChangeTally, rhs: RemoteChangeTally) -> RemoteChangeTally {
        var sum = lhs
        sum.taken += rhs.taken
        sum.merged += rhs.merged
        sum.conflicts += rhs.conflicts
        sum.unchanged += rhs.unchanged
        return sum
    }
}
