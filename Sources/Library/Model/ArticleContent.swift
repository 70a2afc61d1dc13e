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
    /// The article's language (``ArticleLanguage``); nil where nothing said it (content from an
    /// older client or archive), which keeps an article's language and gives a new one the default.
    public var language: String?

    /// Creates article content; every field but the title and body has the value a new draft gets.
    public init(
        title: String, body: String, folder: String? = nil, tags: [String] = [],
        status: ArticleStatus = .draft, isFavorite: Bool = false, language: String? = nil
    ) {
        self.language = language
        self.title = title
        self.body = body
        self.folder = folder
        self.tags = tags
        self.status = status
        self.isFavorite = isFavorite
    }
}

extension ArticleContent {
    /// Whether two contents are the same: every field, and the language when both state one (a
    /// content without a language, from an older client, takes the article's, so it does not
    /// differ from any). The hash leaves the language out accordingly.
    public static func == (lhs: ArticleContent, rhs: ArticleContent) -> Bool {
        lhs.title == rhs.title && lhs.body == rhs.body && lhs.folder == rhs.folder && lhs.tags == rhs.tags
            && lhs.status == rhs.status && lhs.isFavorite == rhs.isFavorite
            && (lhs.language == nil || rhs.language == nil || lhs.language == rhs.language)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(title)
        hasher.combine(body)
        hasher.combine(folder)
        hasher.combine(tags)
        hasher.combine(status)
        hasher.combine(isFavorite)
    }

    /// The content as the server stores it: what an outbox `put` sends.
    public var payload: ArticlePayload {
        ArticlePayload(title: title, body: body, folder: folder, tags: tags, status: status, favorite: isFavorite, language: language)
    }

    /// The content a payload carries, with the protocol's absent fields as a new draft has them
    /// and the tags in the library's one order.
    public init(_ payload: ArticlePayload) {
        self.init(
            title: payload.title, body: payload.body, folder: payload.folder, tags: payload.tags ?? [],
            status: payload.status ?? .draft, isFavorite: payload.favorite ?? false, language: payload.language)
        self = normalized
    }
}
