import Foundation

/// A conflict as a value, for the conflict dialog, `quire conflicts` and the sync worker.
public struct ConflictSnapshot: Sendable, Hashable, Identifiable {
    /// The conflict's ID.
    public var id: UUID
    /// The article concerned.
    public var articleID: UUID
    /// The content both sides started from, when known.
    public var base: ArticleContent?
    /// This device's version when the conflict was found; nil when deleted here.
    public var local: ArticleContent?
    /// The server's version; nil when deleted on the server.
    public var remote: ArticleContent?
    /// The server revision of the base.
    public var baseRevision: Int64?
    /// The server revision of the remote version.
    public var remoteRevision: Int64?
    /// When it was found.
    public var detected: Date
    /// How it was resolved; nil while open.
    public var resolution: ConflictResolution.Kind?
    /// When it was resolved.
    public var resolved: Date?

    /// Whether one side deleted the article while the other edited it.
    public var isEditVersusDelete: Bool { local == nil || remote == nil }
}

extension Conflict {
    /// The record as a value.
    public var snapshot: ConflictSnapshot {
        ConflictSnapshot(
            id: id, articleID: articleID, base: base, local: local, remote: remote, baseRevision: baseRevision,
            remoteRevision: remoteRevision, detected: detected, resolution: resolution, resolved: resolved)
    }
}
