import Foundation
import SyncProtocol
import ObjectGraph

/// How many articles each place of the sidebar holds: All Articles, Favorites, no folder, the
/// Trash, each status, each folder and each tag (the trash left out of all but the Trash).
///
/// Counted in SQL, each place served by an index that covers it (a count that read the articles'
/// rows would read their bodies' pages too): one count per place, and for the tags one grouped
/// count of their join rows (``ManagedObjectContext/countsGrouped(_:by:)``) less the trash's, counted
/// the same way (its join rows found through the trash's index, no article row read).
public struct LibraryCounts: Sendable, Hashable, Codable {
    /// Articles outside the trash.
    public var all: Int
    /// Starred articles outside the trash.
    public var favorites: Int
    /// Articles in no folder, outside the trash.
    public var unfiled: Int
    /// Articles in the trash.
    public var trash: Int
    /// Articles of each status outside the trash (every status present, 0 included).
    public var statuses: [ArticleStatus: Int]
    /// Every folder, by name.
    public var folders: [FolderSummary]
    /// Every tag, by name.
    public var tags: [TagSummary]

    /// The counts as `context` sees the store.
    public static func read(in context: ManagedObjectContext) throws -> LibraryCounts {
        func count(_ predicate: FetchPredicate<StoredArticle>) throws -> Int {
            try context.count(for: FetchRequest<StoredArticle>(predicate: predicate))
        }
        var statuses: [ArticleStatus: Int] = [:]
        for status in ArticleStatus.allCases { statuses[status] = try count(\.status == status && .isNil(\.trashed)) }
        return LibraryCounts(
            all: try count(.isNil(\.trashed)), favorites: try count(\.isFavorite == true && .isNil(\.trashed)),
            unfiled: try count(.isNil(\.folder) && .isNil(\.trashed)), trash: try count(.isNotNil(\.trashed)),
            statuses: statuses, folders: try folders(in: context), tags: try tags(in: context))
    }

    /// Every folder with its articles outside the trash, by name.
    static func folders(in context: ManagedObjectContext) throws -> [FolderSummary] {
        let folders = try context.fetch(FetchRequest<Folder>(sortDescriptors: [.ascending(\.name, order: .localized)]))
        return try folders.map { folder in
            let inFolder = FetchRequest<StoredArticle>(predicate: \.folder == folder && .isNil(\.trashed))
            return FolderSummary(name: folder.name, articleCount: try context.count(for: inFolder))
        }
    }

    /// Every tag with its articles outside the trash, by name: the tag's join rows counted in one
    /// grouped query, less those of the articles in the trash (a second grouped count).
    static func tags(in context: ManagedObjectContext) throws -> [TagSummary] {
        let tags = try context.fetch(FetchRequest<Tag>(sortDescriptors: [.ascending(\.name, order: .localized)]))
        guard !tags.isEmpty else { return [] }
        var counts: [ManagedObjectID: Int] = [:]
        for group in try context.countsGrouped(FetchRequest<StoredArticle>(), by: "tags") {
            if let tag = group.value as? ManagedObjectID { counts[tag] = group.count }
        }
        for group in try context.countsGrouped(FetchRequest<StoredArticle>(predicate: .isNotNil(\.trashed)), by: "tags") {
            if let tag = group.value as? ManagedObjectID { counts[tag, default: 0] -= group.count }
        }
        return tags.map { TagSummary(name: $0.name, articleCount: counts[$0.objectID, default: 0]) }
    }
}
