/// How an article stands against the sync server, as the article list's badge shows it.
///
/// The raw values are written to JSON archives (with the sync metadata): add cases, never rename them.
public enum ArticleSyncState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Never pushed: the server does not know the article yet.
    case localOnly
    /// The local article equals the server revision it is based on.
    case synced
    /// Local edits wait in the outbox.
    case modified
    /// Local and server edits collided and wait for the writer's decision.
    case conflicted
}
