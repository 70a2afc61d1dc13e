import SyncProtocol

/// What reading the change feed from a cursor gave.
public enum ChangeFeedRead: Hashable, Sendable {
    /// The changes after the cursor.
    case page(ChangesPage)
    /// The cursor is older than the account's tombstone horizon, or newer than its last change
    /// (a cursor from another server or an older backup): the client must resync from a snapshot.
    case resyncRequired
}
