import SyncProtocol
import Foundation

/// Everything known about one article at one moment, as a value that crosses isolation domains.
///
/// Managed objects stay in their context; exporters, importers, the merge and the UI's background
/// work take snapshots instead. A snapshot is plain data: changing it changes nothing in a store.
public struct ArticleSnapshot: Sendable, Hashable, Identifiable {
    /// The article's domain identifier, the same on every device and on the server.
    public var id: UUID
    /// The title, one line of plain text.
    public var title: String
    /// The Markdown text, exactly as the writer typed it (line endings included).
    public var body: String
    /// The name of the folder the article is filed in; `nil` when it sits at the top of the library.
    public var folder: String?
    /// Tag names in the writer's order, each at most once.
    public var tags: [String]
    /// Where the article stands in the writer's workflow.
    public var status: ArticleStatus
    /// Whether the writer starred the article.
    public var isFavorite: Bool
    /// When the article was first created, on whichever device that was.
    public var created: Date
    /// When the article's content last changed.
    public var updated: Date
    /// When the article was moved to the trash; `nil` while it is not in the trash.
    public var trashed: Date?
    /// The server's revision this article is based on; `nil` until the server has acknowledged it.
    /// Revisions are the per-article counters the server sends as `ETag`.
    public var serverRevision: Int64?
    /// The article's revision in this library: a counter bumped by every change the writer saves
    /// and by other content the sync worker brings in (`quire edit --if-revision` checks it).
    public var localRevision: Int64
    /// How the article stands against the server.
    public var syncState: ArticleSyncState
    /// The article's language (``ArticleLanguage``); nil where nothing said it (a file or an
    /// archive from before languages).
    public var language: String?
    /// Its earlier versions, oldest first, when they were asked for (an archive written with its
    /// history, ``LibraryArticleSource/includesHistory``); nil otherwise.
    public var history: [ArticleVersionSnapshot]?

    /// Creates a snapshot. The defaults describe a new local draft that was never synced.
    public init(
        id: UUID = UUID(), title: String, body: String, folder: String? = nil, tags: [String] = [],
        status: ArticleStatus = .draft, isFavorite: Bool = false, created: Date, updated: Date,
        trashed: Date? = nil, serverRevision: Int64? = nil, localRevision: Int64 = 0,
        syncState: ArticleSyncState = .localOnly, language: String? = nil, history: [ArticleVersionSnapshot]? = nil
    ) {
        self.language = language
        self.id = id
        self.title = title
        self.body = body
        self.folder = folder
        self.tags = tags
        self.status = status
        self.isFavorite = isFavorite
        self.created = created
        self.updated = updated
        self.trashed = trashed
        self.serverRevision = serverRevision
        self.localRevision = localRevision
        self.syncState = syncState
        self.history = history
    }

    /// The fields the writer edits, read or written together (for a merge or an import).
    public var content: ArticleContent {
        get {
            ArticleContent(
                title: title, body: body, folder: folder, tags: tags, status: status, isFavorite: isFavorite,
                language: language)
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
