import Foundation
import Library
import SyncProtocol

/// The server's version of an article as the worker learnt it: from the change feed, a snapshot
/// page, or the `current` of a 412.
struct RemoteVersion: Sendable, Hashable {
    /// The content; nil when the server deleted the article (or holds nothing under its ID).
    var content: ArticleContent?
    /// The server revision (a tombstone's for a deletion); nil when the server holds nothing.
    var revision: Int64?
    /// When the server committed it.
    var changed: Date?

    /// A live article.
    init(_ article: Article) {
        self.init(content: ArticleContent(article.content), revision: article.revision, changed: article.updatedAt)
    }

    /// A change of the feed (or a 412's `current`): content, or a tombstone.
    init(_ change: ArticleChange) {
        if let article = change.article, !change.deleted {
            self.init(article)
        } else {
            self.init(content: nil, revision: change.revision, changed: change.changedAt)
        }
    }

    /// Nothing on the server: a 412 without `current`, or an article a resync snapshot no longer lists.
    static let nothing = RemoteVersion(content: nil, revision: nil, changed: nil)

    private init(content: ArticleContent?, revision: Int64?, changed: Date?) {
        self.content = content
        self.revision = revision
        self.changed = changed
    }
}
