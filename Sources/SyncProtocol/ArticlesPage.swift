/// The answer to `GET /v1/articles?after=<id>&limit=N`: one page of a full snapshot of the
/// account's live articles, for a first sync or after `resyncRequired`.
///
/// A snapshot read over several pages is not one point in time. Keep `cursor` of the first page,
/// read every page, then pull `/v1/changes` from that cursor: the feed replays whatever changed
/// while the pages were read. Articles the client knows by a server revision but that no page
/// listed were deleted on the server.
public struct ArticlesPage: Codable, Hashable, Sendable {
    /// Live articles with an ID greater than `after`, ordered by ID (bytewise).
    public var articles: [Article]
    /// The feed position this page was read at.
    public var cursor: Int64
    /// Whether more articles follow; then pass the last article's ID as `after`.
    public var hasMore: Bool

    /// A page as the server answers with it.
    public init(articles: [Article], cursor: Int64, hasMore: Bool) {
        self.articles = articles
        self.cursor = cursor
        self.hasMore = hasMore
    }
}
