/// The answer to `GET /v1/changes?since=<cursor>&limit=N`.
public struct ChangesPage: Codable, Hashable, Sendable {
    /// Changes with a cursor greater than `since`, in commit order (ascending cursor). An article
    /// appears once per change, unless an older revision of it was purged after the retention
    /// period: then only its later changes are listed.
    public var changes: [ArticleChange]
    /// The cursor to send as `since` next: the last change's cursor, or `since` itself when the
    /// page is empty. Store it only after the page is applied.
    public var nextCursor: Int64
    /// Whether more changes follow right away.
    public var hasMore: Bool

    /// A page as the server answers with it.
    public init(changes: [ArticleChange], nextCursor: Int64, hasMore: Bool) {
        self.changes = changes
        self.nextCursor = nextCursor
        self.hasMore = hasMore
    }
}
