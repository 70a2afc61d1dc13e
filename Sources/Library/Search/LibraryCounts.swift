import Foundation
import SyncProtocol
import ObjectGraph

/// How many articles each place of the sidebar holds: All Articles, Favorites, no folder, the
/// Trash, each status, each folder and each tag (the trash left out of all but the Trash).
///
/// Counted in SQL: the articles outside the trash grouped by status (their sum is All Articles),
/// by folder (no folder is Unfiled) and by tag, one `GROUP BY` query each
/// (``ManagedObjectContext/countsGrouped(_:by:)``), and two counts for Favorites and the Trash.
/// Read from the store: unsaved changes of the context are not counted.
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

    /// The articles the sidebar counts everywhere but in the Trash.
    private static let outsideTrash = FetchRequest<StoredArticle>(predicate: .isNil(\.trashed))

    /// The counts as `context` sees the store.
    public static func read(in context: ManagedObjectContext) throws -> LibraryCounts {
        var statuses = Dictionary(uniqueKeysWithValues: ArticleStatus.allCases.map { ($0, 0) })
        var all = 0
        for group in try context.countsGrouped(outsideTrash, by: "status") {
            all += group.count
            if let status = (group.value as? String).flatMap(ArticleStatus.init(rawValue:)) { statuses[status] = group.count }
        }
        let (folders, unfiled) = try foldersAndUnfiled(in: context)
        return LibraryCounts(
            all: all,
            favorites: try context.count(for: FetchRequest<StoredArticle>(predicate: \.isFavorite == true && .isNil(\.trashed))),
            unfiled: unfiled, trash: try context.count(for: FetchRequest<StoredArticle>(predicate: .isNotNil(\.trashed))),
            statuses: statuses, folders: folders, tags: try tags(in: context))
    }

    /// Every folder with its articles outside the trash, by name.
    static func folders(in context: ManagedObjectContext) throws -> [FolderSummary] {
        try foldersAndUnfiled(in: context).folders
    }

    /// Every folder with its articles outside the trash, by name, and the articles in no folder.
    private static func foldersAndUnfiled(in context: ManagedObjectContext) throws -> (folders: [FolderSummary], unfiled: Int) {
        var counts: [ManagedObjectID: Int] = [:]
        var unfiled = 0
        for group in try context.countsGrouped(outsideTrash, by: "folder") {
            if let folder = group.value as? ManagedObjectID { counts[folder] = group.count } else { unfiled = group.count }
        }
        let folders = try context.fetch(FetchRequest<Folder>(sortDescriptors: [.ascending(\.name, order: .localized)]))
        return (folders.map { FolderSummary(name: $0.name, articleCount: counts[$0.objectID, default: 0]) }, unfiled)
    }

    /// Every tag with its articles outside the trash, by name.
    static func tags(in context: ManagedObjectContext) throws -> [TagSummary] {
        let tags = try context.fetch(FetchRequest<Tag>(sortDescriptors: [.ascending(\.name, order: .localized)]))
        guard !tags.isEmpty else { return [] }
        var counts: [ManagedObjectID: Int] = [:]
        for group in try context.countsGrouped(outsideTrash, by: "tags") {
            if let tag = group.value as? ManagedObjectID { counts[tag] = group.count }
        }
        return tags.map { TagSummary(name: $0.name, articleCount: counts[$0.objectID, default: 0]) }
    }
}
