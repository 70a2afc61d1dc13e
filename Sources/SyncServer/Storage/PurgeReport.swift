/// What one `purge` removed, for the log.
public struct PurgeReport: Hashable, Sendable {
    /// Tombstones removed, with every revision of their articles.
    public var tombstones = 0
    /// Revisions removed because a later change of their article replaced them.
    public var supersededRevisions = 0
    /// Idempotency records removed (completed ones and dead claims).
    public var operations = 0
    /// Blobs removed because no revision referred to them and their grace was over.
    public var blobs = 0
    /// The bytes of those blobs, given back to their accounts' quotas.
    public var blobBytes: Int64 = 0

    /// A report of these counts.
    public init(tombstones: Int = 0, supersededRevisions: Int = 0, operations: Int = 0, blobs: Int = 0, blobBytes: Int64 = 0) {
        self.tombstones = tombstones
        self.supersededRevisions = supersededRevisions
        self.operations = operations
        self.blobs = blobs
        self.blobBytes = blobBytes
    }
}
