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
}
