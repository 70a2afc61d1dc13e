import Library

/// What the sidebar counts: every article, the favorites, each folder and each tag (from
/// Library's ``LibraryCounts``, read off the main thread).
struct SidebarCounts: Sendable, Hashable {
    var all: Int
    var favorites: Int
    var folders: [FolderSummary]
    var tags: [TagSummary]

    init(_ counts: LibraryCounts) {
        (all, favorites, folders, tags) = (counts.all, counts.favorites, counts.folders, counts.tags)
    }

    /// The count a place shows; nil for the Trash, which shows none.
    func count(of item: SidebarItem) -> Int? {
        switch item {
        case .all: all
        case .favorites: favorites
        case .folder(let name): folders.first { $0.name == name }?.articleCount
        case .tag(let name): tags.first { $0.name == name }?.articleCount
        case .trash: nil
        }
    }
}
