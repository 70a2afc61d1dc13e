import Foundation

/// What one push/pull cycle did, for `quire sync` and for tests.
public struct SyncSummary: Sendable, Hashable {
    /// Operations the server acknowledged.
    public var pushed = 0
    /// Operations the server refused for good in this cycle.
    public var refused = 0
    /// What the 412s of this cycle's pushes led to (clean merges, conflicts).
    public var pushConflicts = RemoteChangeTally()
    /// What the pulled changes did.
    public var pulled = RemoteChangeTally()
    /// Attachments of pulled articles downloaded and stored (``SyncCycle/downloadAttachments(in:)``).
    public var attachmentsDownloaded = 0
    /// Whether the feed had to be read again from the snapshot (410).
    public var resynced = false
    /// Whether the pull stopped early (a write still waiting, or the server asked to wait).
    public var pullIncomplete = false
    /// The status afterwards: changes still waiting, open conflicts, refused changes, last synced.
    public var status = SyncStatus()

    /// No counts.
    public init() {}
}
