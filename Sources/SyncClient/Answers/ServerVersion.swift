import Library
import SyncProtocol

/// The server's version of an article after a write it acknowledged: what becomes the article's
/// base.
public enum ServerVersion: Sendable, Hashable {
    /// The article as the server now holds it (the answer to `PUT`).
    case live(Article)
    /// The article is deleted on the server: the tombstone the `DELETE` left, or the one a 404
    /// carried. Nil when the server held nothing under the ID (never created, or its tombstone
    /// purged), or the delete needed no request.
    case deleted(tombstone: ArticleChange?)

    /// The server revision, when there is one.
    public var revision: Int64? {
        switch self {
        case let .live(article): return article.revision
        case let .deleted(tombstone): return tombstone?.revision
        }
    }
}

extension RemoteVersion {
    /// The server's answer to an acknowledged write, as the library takes it (no content for a deletion).
    init(_ version: ServerVersion) {
        switch version {
        case let .live(article): self.init(article)
        case .deleted: self = .nothing
        }
    }
}
