import Foundation

/// Which articles an export covers, as the export dialog and `quire export --scope` name them.
///
/// The store turns a scope into the list of articles for an ``ArticleSource``; ``includes(_:)`` is
/// the rule it must follow. Articles in the trash are left out of every scope except an explicit
/// selection.
public enum ExportScope: Sendable, Hashable {
    /// The articles the writer selected, in this order.
    case selected([UUID])
    /// The articles filed in the folder with this name.
    case folder(String)
    /// Articles whose status is draft.
    case drafts
    /// Articles with edits the server has not acknowledged yet (never pushed, modified or conflicted).
    case unsynced
    /// Every article of the library.
    case library

    /// Reads the command line's form: `selected:ID,ID,…`, `folder:NAME`, `drafts`, `unsynced`, `all`.
    /// Returns `nil` for anything else (an unknown word, a malformed ID, an empty folder name).
    public init?(argument: String) {
        if argument == "all" {
            self = .library
        } else if argument == "drafts" {
            self = .drafts
        } else if argument == "unsynced" {
            self = .unsynced
        } else if argument.hasPrefix("folder:") {
            let name = String(argument.dropFirst("folder:".count))
            guard !name.isEmpty else { return nil }
            self = .folder(name)
        } else if argument.hasPrefix("selected:") {
            let ids = argument.dropFirst("selected:".count).split(separator: ",").map { UUID(uuidString: String($0)) }
            guard !ids.isEmpty, !ids.contains(nil) else { return nil }
            self = .selected(ids.compactMap { $0 })
        } else {
            return nil
        }
    }

    /// Whether `article` belongs to the scope.
    public func includes(_ article: ArticleSnapshot) -> Bool {
        if case .selected(let ids) = self { return ids.contains(article.id) }
        guard article.trashed == nil else { return false }
        switch self {
        case .selected: return false
        case .folder(let name): return article.folder == name
        case .drafts: return article.status == .draft
        case .unsynced: return article.syncState != .synced
        case .library: return true
        }
    }
}
