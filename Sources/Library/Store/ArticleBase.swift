import Foundation
import ObjectGraph
import SyncProtocol

/// The content of an article at the server revision it was last synced at: the base of a
/// three-way merge. Kept out of the article's row so that list fetches stay light, and keyed by
/// the article's ID so that it outlives an emptied trash until the delete is acknowledged.
///
/// The sync worker writes it after every acknowledged push and applied pull.
public final class ArticleBase: ManagedObject {
    /// The article it is the base of.
    @Attribute("articleID") public var articleID: UUID
    /// The server revision of this content.
    @Attribute("revision") public var revision: Int64
    /// The title at that revision.
    @Attribute("title") public var title: String
    /// The body at that revision.
    @Attribute("body") public var body: String
    /// The folder name at that revision.
    @Attribute("folder") public var folder: String?
    /// The tag names at that revision.
    @CodableAttribute("tags", default: []) public var tags: [String]
    /// The status at that revision.
    @Attribute("status") public var status: ArticleStatus
    /// The favorite flag at that revision.
    @Attribute("favorite") public var isFavorite: Bool
    /// The language at that revision; nil for a base recorded before schema V4.
    @Attribute("language") public var language: String?
    /// When the server committed that revision.
    @Attribute("serverUpdated") public var serverUpdated: Date?

    /// The base as article content, for ``ArticleMerge``.
    public var content: ArticleContent {
        get {
            ArticleContent(
                title: title, body: body, folder: folder, tags: tags, status: status, isFavorite: isFavorite, language: language)
        }
        set {
            title = newValue.title
            body = newValue.body
            folder = newValue.folder
            tags = newValue.tags
            status = newValue.status
            isFavorite = newValue.isFavorite
            language = newValue.language
        }
    }
}
