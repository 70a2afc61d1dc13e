/// What one `purge` removed, for the log.
public struct PurgeReport: Hashable, Sendable {
    public var tombstones = 0
    public var supersededRevisions = 0
    public var operations = 0

    public init(tombstones: Int = 0, supersededRevisions: Int = 0, operations: Int = 0) {
        self.tombstones = tombstones
        self.supersededRevisions = supersededRevisions
        self.operations = operations
    }
}
