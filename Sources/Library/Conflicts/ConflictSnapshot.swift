import Foundation

/// A conflict as a value, for the conflict dialog, `quire conflicts` and the sync worker.
///
/// While the conflict is open its local side is the live article (``ConflictSides``): what the
/// writer changed after the conflict was found is part of it. A resolved conflict keeps the sides
/// it was resolved against.
public struct ConflictSnapshot: Sendable, Hashable, Identifiable {
    /// The conflict's ID.
    public var id: UUID
    /// The article concerned.
    public var articleID: UUID
    /// The versions: the base, this device's (live while open), the server's.
    public var sides: ConflictSides
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

    /// The content both sides started from, when known.
    public var base: ArticleContent? { sides.base }
    /// This device's version: the live article's content while open; nil when deleted here.
    public var local: ArticleContent? { sides.local }
    /// The server's version; nil when deleted on the server.
    public var remote: ArticleContent? { sides.remote }
    /// What the conflict is about.
    public var kind: ConflictKind { sides.kind }

    /// Whether one side deleted the article while the other edited it (or both deleted it).
    public var isEditVersusDelete: Bool { local == nil || remote == nil }

    /// The article's title as the writer knows it: this device's, else the server's, else the base's.
    public var title: String { sides.current?.title ?? remote?.title ?? base?.title ?? "" }
}

extension Conflict {
    /// The record as a value. While it is open, this device's side is `article` as it stands
    /// (nil when the article is gone); once resolved, the side it was resolved against.
    func snapshot(article: StoredArticle?) -> ConflictSnapshot {
        ConflictSnapshot(
            id: id, articleID: articleID, sides: sides(article: article), baseRevision: baseRevision,
            remoteRevision: remoteRevision, detected: detected, resolution: resolution, resolved: resolved)
    }

    /// The sides: the live article's while open, the recorded ones once resolved.
    func sides(article: StoredArticle?) -> ConflictSides {
        guard resolved == nil else {
            return ConflictSides(base: base, current: local, isDeletedHere: local == nil, remote: remote, localAtDetection: local)
        }
        return ConflictSides(
            base: base, current: article?.content, isDeletedHere: article?.trashed != nil, remote: remote,
            localAtDetection: local)
    }
}
