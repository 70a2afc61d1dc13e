import Library
import Platform

/// One place in the sidebar: a way of filtering the article list.
enum SidebarItem: Hashable, Sendable {
    case all
    case favorites
    case folder(String)
    case tag(String)
    case trash

    /// The articles the place lists.
    var filter: ArticleQuery.Filter {
        switch self {
        case .all: .all
        case .favorites: .favorites
        case .folder(let name): .folder(name)
        case .tag(let name): .tag(name)
        case .trash: .trash
        }
    }

    /// The name the sidebar and the window title show.
    var title: String {
        switch self {
        case .all: gettext("All Articles")
        case .favorites: gettext("Favorites")
        case .folder(let name), .tag(let name): name
        case .trash: gettext("Trash")
        }
    }

    var iconName: String {
        switch self {
        case .all: "view-list-symbolic"
        case .favorites: "starred-symbolic"
        case .folder: "folder-symbolic"
        case .tag: Self.tagIconName
        case .trash: "user-trash-symbolic"
        }
    }

    /// A tag's icon (Adwaita 43 has no tag icon; a bookmark's ribbon reads as a label).
    static let tagIconName = "user-bookmarks-symbolic"

    /// Whether an article dropped here goes somewhere: into no folder (All Articles), a folder,
    /// or the Trash. Favorites and tags only list.
    var takesArticleDrops: Bool {
        switch self {
        case .all, .folder, .trash: true
        case .favorites, .tag: false
        }
    }

    /// The folder's name, for a folder.
    var folderName: String? {
        if case .folder(let name) = self { return name }
        return nil
    }

    /// The tag's name, for a tag.
    var tagName: String? {
        if case .tag(let name) = self { return name }
        return nil
    }
}
