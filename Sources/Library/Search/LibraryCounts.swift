import Foundation
import SyncProtocol
import ObjectGraph

/// How many articles each place of the sidebar holds: All Articles, Favorites, no folder, the
/// Trash, each status, each folder and each tag (the trash left out of all but the Trash).
///
/// Counted in SQL, one query per place, each served by an index (a tag's count is its join rows
/// less its articles in the trash): no article is made into an object.
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

    /// Every tag with its articles outside the trash, by name: the tag's members counted in its
    /// join table, less its members in the trash (counted through the trash's index).
    static func tags(in context: ManagedObjectContext) throws -> [TagSummary] {
        let tags = try context.fetch(FetchRequest<Tag>(sortDescriptors: [.ascending(\.name, order: .localized)]))
        return try tags.map { tag in
            let trashed = FetchRequest<StoredArticle>(predicate: .isNotNil(\.trashed) && .any(\.tags, \.name == tag.name))
            return TagSummary(name: tag.name, articleCount: tag.$articles.count - (try context.count(for: trashed)))
        }
    }
}
