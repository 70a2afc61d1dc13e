import Foundation
import SyncProtocol
import ObjectGraph

/// The bodies of the writer's small edits (folder, tags, star, status, folders), each run in the
/// caller's context: a background one (``Library``'s async operations) or the view context (the
/// `…InViewContext` variants the app's editor and sidebar call). Each ends with
/// ``LocalChanges/record(in:at:alsoChanged:)``, so that the save that follows carries the
/// articles' outbox operations.
enum ArticleEdits {
    static func move(_ ids: [UUID], toFolder name: String?, in context: ManagedObjectContext, at now: Date) throws {
        let folder = try name.map { name in
            guard let folder = try LibraryNames.folder(named: name, in: context) else { throw LibraryError.folderNotFound(name) }
            return folder
        }
        for article in try LibraryNames.articles(ids, in: context) where article.folder != folder { article.folder = folder }
        try LocalChanges.record(in: context, at: now)
    }

    static func tag(_ ids: [UUID], with tagName: String, in context: ManagedObjectContext, at now: Date) throws {
        let tag = try LibraryNames.tag(named: tagName, creatingIn: context)
        for article in try LibraryNames.articles(ids, in: context) where !article.tags.contains(tag) {
            article.$tags.insert(tag)
        }
        try LocalChanges.record(in: context, at: now)
    }

    static func untag(_ ids: [UUID], from tagName: String, in context: ManagedObjectContext, at now: Date) throws {
        guard let tag = try LibraryNames.tag(named: tagName, in: context) else { return }
        for article in try LibraryNames.articles(ids, in: context) where article.tags.contains(tag) {
            article.$tags.remove(tag)
        }
        try LocalChanges.record(in: context, at: now)
    }

    static func setFavorite(_ isFavorite: Bool, for ids: [UUID], in context: ManagedObjectContext, at now: Date) throws {
        for article in try LibraryNames.articles(ids, in: context) where article.isFavorite != isFavorite {
            article.isFavorite = isFavorite
        }
        try LocalChanges.record(in: context, at: now)
    }

    static func setStatus(_ status: ArticleStatus, for ids: [UUID], in context: ManagedObjectContext, at now: Date) throws {
        for article in try LibraryNames.articles(ids, in: context) where article.status != status {
            article.status = status
        }
        try LocalChanges.record(in: context, at: now)
    }

    static func createFolder(named name: String, in context: ManagedObjectContext, at now: Date) throws {
        guard try LibraryNames.folder(named: name, in: context) == nil else { throw LibraryError.folderExists(name) }
        _ = try LibraryNames.folder(named: name, creatingIn: context, at: now)
    }

    static func deleteFolder(named name: String, in context: ManagedObjectContext, at now: Date) throws -> [UUID] {
        guard let folder = try LibraryNames.folder(named: name, in: context) else { throw LibraryError.folderNotFound(name) }
        let articles = Array(folder.articles)
        for article in articles { article.folder = nil }
        context.delete(folder)
        try LocalChanges.record(in: context, at: now)
        return articles.map(\.id)
    }
}

/// The operations the app's user interface runs in the view context and saves before they return:
/// the editor's tag chips and status menu, the star, the sidebar's folder and tag menus (and their
/// Undo), so that the window shows the change at once and the editor's next save builds on it
/// (a change saved from a background context meanwhile would make that save meet a newer row).
/// Each is the same edit as its async namesake, one save with its outbox operations; on failure
/// the view context is rolled back and the error thrown.
@MainActor
extension Library {
    /// ``tagArticles(_:with:)`` in the view context.
    public func tagArticlesInViewContext(_ ids: [UUID], with tagName: String) throws {
        try writeInViewContext { context, now in try ArticleEdits.tag(ids, with: tagName, in: context, at: now) }
    }

    /// ``untagArticles(_:from:)`` in the view context.
    public func untagArticlesInViewContext(_ ids: [UUID], from tagName: String) throws {
        try writeInViewContext { context, now in try ArticleEdits.untag(ids, from: tagName, in: context, at: now) }
    }

    /// ``setStatus(_:for:)`` in the view context.
    public func setStatusInViewContext(_ status: ArticleStatus, for ids: [UUID]) throws {
        try writeInViewContext { context, now in try ArticleEdits.setStatus(status, for: ids, in: context, at: now) }
    }

    /// ``setFavorite(_:for:)`` in the view context.
    public func setFavoriteInViewContext(_ isFavorite: Bool, for ids: [UUID]) throws {
        try writeInViewContext { context, now in try ArticleEdits.setFavorite(isFavorite, for: ids, in: context, at: now) }
    }

    /// ``moveArticles(_:toFolder:)`` in the view context.
    public func moveArticlesInViewContext(_ ids: [UUID], toFolder name: String?) throws {
        try writeInViewContext { context, now in try ArticleEdits.move(ids, toFolder: name, in: context, at: now) }
    }

    /// ``createFolder(named:)`` in the view context.
    public func createFolderInViewContext(named name: String) throws {
        try writeInViewContext { context, now in try ArticleEdits.createFolder(named: name, in: context, at: now) }
    }

    /// ``deleteFolder(named:)`` in the view context; returns the articles it held, for Undo
    /// (``createFolderInViewContext(named:)`` then ``moveArticlesInViewContext(_:toFolder:)``).
    @discardableResult
    public func deleteFolderInViewContext(named name: String) throws -> [UUID] {
        try writeInViewContext { context, now in try ArticleEdits.deleteFolder(named: name, in: context, at: now) }
    }

    /// ``renameTag(_:to:)`` in the view context.
    public func renameTagInViewContext(_ name: String, to newName: String) throws {
        try writeInViewContext { context, now in try Self.renameTag(name, to: newName, in: context, at: now) }
    }

    /// ``deleteTag(_:)`` in the view context; returns the articles that carried it, for Undo.
    @discardableResult
    public func deleteTagInViewContext(_ name: String) throws -> [UUID] {
        try writeInViewContext { context, now in try Self.deleteTag(name, in: context, at: now) }
    }

    /// The sidebar's counts as the view context sees the store (``LibraryCounts``).
    public func countsInViewContext() throws -> LibraryCounts {
        try LibraryCounts.read(in: viewContext)
    }

    /// Every tag name, for the tag entry's completion, read in the view context.
    public func tagNamesInViewContext() throws -> [String] {
        try viewContext.fetch(FetchRequest<Tag>(sortDescriptors: [.ascending(\.name, order: .localized)])).map(\.name)
    }
}
