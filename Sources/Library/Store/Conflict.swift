import Foundation
import ObjectGraph

/// Local and server edits of one article that collided and wait for the writer's decision, with
/// the three versions a merge needs. A nil side was deleted on that side.
public final class Conflict: ManagedObject {
    /// The conflict's own ID.
    @Attribute("id") public var id: UUID
    /// The article concerned (the article may sit in the trash).
    @Attribute("articleID") public var articleID: UUID
    /// The last synced content both sides started from; nil when there was none.
    @CodableAttribute("base") public var base: ArticleContent?
    /// This device's version when the conflict was found (nil: deleted here), and once resolved
    /// the version it was resolved against. While the conflict is open, this device's side is the
    /// live article (``ConflictSides``); this keeps what the writer could have seen at detection.
    @CodableAttribute("local") public var local: ArticleContent?
    /// The server's version; nil when deleted on the server.
    @CodableAttribute("remote") public var remote: ArticleContent?
    /// The server revision of the base.
    @Attribute("baseRevision") public var baseRevision: Int64?
    /// The server revision of the remote version (a tombstone's, for a deletion).
    @Attribute("remoteRevision") public var remoteRevision: Int64?
    /// When the conflict was found.
    @Attribute("detected") public var detected: Date
    /// How the writer resolved it; nil while open.
    @Attribute("resolution") public var resolution: ConflictResolution.Kind?
    /// When it was resolved.
    @Attribute("resolved") public var resolved: Date?
}

extension ConflictResolution.Kind: AttributeValue {}
