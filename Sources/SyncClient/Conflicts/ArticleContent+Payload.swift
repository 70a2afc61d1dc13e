import Library
import SyncProtocol

extension ArticleContent {
    /// The content a payload carries, with the protocol's absent fields as a new draft has them
    /// and the tags in the library's one order.
    init(_ payload: ArticlePayload) {
        self.init(
            title: payload.title, body: payload.body, folder: payload.folder, tags: payload.tags ?? [],
            status: payload.status ?? .draft, isFavorite: payload.favorite ?? false)
        self = normalized
    }

    /// The tags sorted the way the store lists them (``StoredArticle/tagNames``), so that contents
    /// that differ only in tag order compare equal.
    var normalized: ArticleContent {
        var content = self
        content.tags = Array(Set(tags)).sorted { lhs, rhs in
            let (left, right) = (ArticleText.sortKey(lhs), ArticleText.sortKey(rhs))
            return left != right ? left < right : lhs < rhs
        }
        return content
    }
}
