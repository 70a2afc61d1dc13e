import Foundation
import SyncProtocol

/// The server's version of an article as the sync worker learnt it: from the change feed, a
/// snapshot page, the `current` of a 412, or the answer to its own write.
public struct RemoteVersion: Sendable, Hashable {
    /// The content; nil when the server deleted the article (or holds nothing under its ID).
    public var content: ArticleContent?
    /// The server revision (a tombstone's for a deletion); nil when the server holds nothing.
    public var revision: Int64?
    /// When the server committed it.
    public var changed: Date?

    /// A live article.
    public init(_ article: Article) {
        self.init(content: ArticleContent(article.content), revision: article.revision, changed: article.updatedAt)
    }

    /// A change of the feed (or a 412's `current`): content, or a tombstone.
    public init(_ change: ArticleChange) {
        if let article = change.article, !change.deleted {
            self.init(article)
        } else {
            self.init(content: nil, revision: change.revision, changed: change.changedAt)
        }
    }

    /// Nothing on the server: a 412 without `current`, or an article a resync snapshot no longer lists.
    public static let nothing = RemoteVersion(content: nil, revision: nil, changed: nil)

    private init(content: ArticleContent?, revision: Int64?, changed: Date?) {
        self.content = content
        self.revision = revision
        self.changed = changed
    }
}
