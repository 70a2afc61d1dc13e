import Foundation
import ObjectGraph
import SyncProtocol

/// An article as a list shows it: everything but its body and tags, read without loading them.
public struct ArticleSummary: Sendable, Hashable, Identifiable {
    /// The article's ID.
    public var id: UUID
    /// The title.
    public var title: String
    /// The subtitle, if any.
    public var subtitle: String?
    /// The start of the body as plain text.
    public var excerpt: String
    /// Words in the body.
    public var wordCount: Int
    /// Estimated minutes to read it.
    public var readingMinutes: Int
    /// The folder's name.
    public var folder: String?
    /// The workflow status.
    public var status: ArticleStatus
    /// Whether it is starred.
    public var isFavorite: Bool
    /// When it was created.
    public var created: Date
    /// When its title, body or status last changed.
    public var updated: Date
    /// When it went to the trash.
    public var trashed: Date?
    /// How it stands against the server.
    public var syncState: ArticleSyncState

    /// The columns a summary reads (dictionary fetches read nothing else).
    static let properties = [
        "id", "title", "subtitle", "excerpt", "wordCount", "readingMinutes", "folder.name", "status", "favorite", "created", "updated", "trashed",
        "syncState",
    ]

    /// A summary from a dictionary fetch of ``properties``.
    init?(row: [String: any Sendable]) {
        guard let id = row["id"] as? UUID, let created = row["created"] as? Date, let updated = row["updated"] as? Date else {
            return nil
        }
        self.id = id
        title = row["title"] as? String ?? ""
        subtitle = row["subtitle"] as? String
        excerpt = row["excerpt"] as? String ?? ""
        wordCount = Int(row["wordCount"] as? Int64 ?? 0)
        readingMinutes = Int(row["readingMinutes"] as? Int64 ?? 0)
        folder = row["folder.name"] as? String
        status = (row["status"] as? String).flatMap(ArticleStatus.init(rawValue:)) ?? .draft
        isFavorite = row["favorite"] as? Bool ?? false
        self.created = created
        self.updated = updated
        trashed = row["trashed"] as? Date
        syncState = (row["syncState"] as? String).flatMap(ArticleSyncState.init(rawValue:)) ?? .localOnly
    }
}
