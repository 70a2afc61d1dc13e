import SyncProtocol

/// The part of an article that the writer edits: what a three-way merge reconciles and what an
/// import replaces. Identity, timestamps and sync metadata live beside it in ``ArticleSnapshot``.
public struct ArticleContent: Sendable, Hashable, Codable {
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

    /// Creates article content; every field but the title and body has the value a new draft gets.
    public init(
        title: String, body: String, folder: String? = nil, tags: [String] = [],
        status: ArticleStatus = .draft, isFavorite: Bool = false
    ) {
        self.title = title
        self.body = body
        self.folder = folder
        self.tags = tags
        self.status = status
        self.isFavorite = isFavorite
    }
}

extension ArticleContent {
    /// The content as the server stores it: what an outbox `put` sends.
    public var payload: ArticlePayload {
        ArticlePayload(title: title, body: body, folder: folder, tags: tags, status: status, favorite: isFavorite)
    }

    /// The content a payload carries, with the protocol's absent fields as a new draft has them
    /// and the tags in the library's one order.
    public init(_ payload: ArticlePayload) {
        self.init(
            title: payload.title, body: payload.body, folder: payload.folder, tags: payload.tags ?? [],
            status: payload.status ?? .draft, isFavorite: payload.favorite ?? false)
        self = normalized
    }
}
