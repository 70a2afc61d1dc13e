/// What one `purge` removed, for the log.
public struct PurgeReport: Hashable, Sendable {
    /// Tombstones removed, with every revision of their articles.
    public var tombstones = 0
    /// Revisions removed because a later change of their article replaced them.
    public var supersededRevisions = 0
    /// Idempotency records removed (completed ones and dead claims).
    public var operations = 0

    /// A report of these counts.
    public init(tombstones: Int = 0, supersededRevisions: Int = 0, operations: Int = 0) {
        self.tombstones = tombstones
        self.supersededRevisions = supersededRevisions
        self.operations = operations
    }
}
