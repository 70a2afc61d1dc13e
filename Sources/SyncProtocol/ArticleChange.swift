import Foundation

/// One committed change of an article: a new revision of its content, or its deletion.
///
/// It is an entry of the change feed, the answer to `DELETE`, and the `current` server version
/// carried by 412 and 404 problems, so a client handles all of them alike.
public struct ArticleChange: Codable, Hashable, Sendable {
    /// The change's position in the account's feed. Pass the last one seen as `since`.
    /// Clients must not assume any relation between cursors and revisions.
    public var cursor: Int64
    /// The article's ID.
    public var id: String
    /// The revision this change created. After a deletion it is the tombstone's revision.
    public var revision: Int64
    /// Whether the change deleted the article; then `article` is absent.
    public var deleted: Bool
    /// When the server committed the change.
    public var changedAt: Date
    /// The article as this change left it; absent for a deletion.
    public var article: Article?

    /// A change as the server answers with it.
    public init(cursor: Int64, id: String, revision: Int64, deleted: Bool, changedAt: Date, article: Article?) {
        self.cursor = cursor
        self.id = id
        self.revision = revision
        self.deleted = deleted
        self.changedAt = changedAt
        self.article = article
    }
}
