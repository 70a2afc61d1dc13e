import Foundation
import ObjectGraph
import SyncProtocol

/// The operations a writer performs on articles. Each is one save: the articles and their outbox
/// operations commit together.
extension Library {
    /// Creates an article with `content` (its folder and tags are created when missing) and returns
    /// it. The ID is fresh unless given.
    @discardableResult
    public func createArticle(
        _ content: ArticleContent = ArticleContent(title: "", body: ""), id: UUID = UUID()
    ) async throws -> ArticleSnapshot {
        try await write { context, now in try Self.insertArticle(content, id: id, in: context, at: now).snapshot }
    }

    /// ``createArticle(_:id:)`` in the view context, saved before it returns: for the app, which
    /// opens the new article at once, so that the next key the writer presses goes into its
    /// title. Returns the article's object ID in the view context. On failure the view context
    /// is rolled back and the error thrown.
    @MainActor
    public func createArticleInViewContext(
        _ content: ArticleContent = ArticleContent(title: "", body: ""), id: UUID = UUID()
    ) throws -> ManagedObjectID {
        // The ID after the save: a new object's ID is temporary until it is saved.
        try writeInViewContext { context, now in try Self.insertArticle(content, id: id, in: context, at: now) }.objectID
    }

    /// A new article with `content` and its outbox operation in `context`, not saved yet.
    private static func insertArticle(_ content: ArticleContent, id: UUID, in context: ManagedObjectContext, at now: Date) throws -> StoredArticle {
        let article = StoredArticle(context: context)
        article.id = id
        article.created = now
        article.updated = now
        try article.setContent(content, at: now)
        try LocalChanges.record(in: context, at: now)
        return article
    }

    /// Changes an article's title, body and/or language; returns the article as saved. With `ifRevision`,
    /// only while the article is still at that revision (``ArticleSnapshot/localRevision``), so that
    /// a read-modify-write never overwrites a change that came in between (another program's, or
    /// one the sync worker pulled); otherwise throws ``LibraryError/revisionChanged(article:expected:current:)``.
    /// With `endingSession`, the edit ends an editing session: the version of the text
    /// (``endEditingSession(of:)``) is recorded in the same save, so the two commit together.
    @discardableResult
    public func editArticle(
        _ id: UUID, title: String? = nil, body: String? = nil, language: String? = nil, ifRevision: Int64? = nil,
        endingSession: Bool = false
    ) async throws -> ArticleSnapshot {
        let (snapshot, recorded) = try await write { context, now in
            let article = try LibraryNames.article(id, in: context)
            if let ifRevision, article.localRevision != ifRevision {
                throw LibraryError.revisionChanged(article: id, expected: ifRevision, current: article.localRevision)
            }
            if let title, title != article.title { article.title = title }
            if let body, body != article.body { article.body = body }
            if let language, language != article.language { article.language = language }
            try LocalChanges.record(in: context, at: now)
            let recorded = try endingSession ? Self.recordEndOfEditingSession(of: article.objectID, in: context, at: now) : false
            return (article.snapshot, recorded)
        }
        if recorded { try await trimHistory() }
        return snapshot
    }

    /// Gives articles all the content the writer edits at once (the editor's save, an import).
    @discardableResult
    public func replaceContent(of id: UUID, with content: ArticleContent) async throws -> ArticleSnapshot {
        try await write { context, now in
            let article = try LibraryNames.article(id, in: context)
            try article.setContent(content, at: now)
            try LocalChanges.record(in: context, at: now)
            return article.snapshot
        }
    }

    /// Files articles in the folder with this name (which must exist), or at the top (nil).
    public func moveArticles(_ ids: [UUID], toFolder name: String?) async throws {
        try await write { context, now in try ArticleEdits.move(ids, toFolder: name, in: context, at: now) }
    }

    /// Adds the tag (created when missing) to articles.
    public func tagArticles(_ ids: [UUID], with tagName: String) async throws {
        try await write { context, now in try ArticleEdits.tag(ids, with: tagName, in: context, at: now) }
    }

    /// Removes the tag from articles; a tag that does not exist changes nothing.
    public func untagArticles(_ ids: [UUID], from tagName: String) async throws {
        try await write { context, now in try ArticleEdits.untag(ids, from: tagName, in: context, at: now) }
    }

    /// Stars or unstars articles.
    public func setFavorite(_ isFavorite: Bool, for ids: [UUID]) async throws {
        try await write { context, now in try ArticleEdits.setFavorite(isFavorite, for: ids, in: context, at: now) }
    }

    /// Sets articles' workflow status.
    public func setStatus(_ status: ArticleStatus, for ids: [UUID]) async throws {
        try await write { context, now in try ArticleEdits.setStatus(status, for: ids, in: context, at: now) }
    }

    /// Moves articles to the trash: each gets a `delete` operation, the tombstone sync carries.
    /// Articles already there stay as they are.
    public func moveToTrash(_ ids: [UUID]) async throws {
        try await write { context, now in
            for article in try LibraryNames.articles(ids, in: context) where article.trashed == nil {
                article.trashed = now
            }
            try LocalChanges.record(in: context, at: now)
        }
    }

    /// Takes articles out of the trash: each gets a `put` operation that brings it back.
    public func restore(_ ids: [UUID]) async throws {
        try await write { context, now in
            for article in try LibraryNames.articles(ids, in: context) where article.trashed != nil {
                article.trashed = nil
            }
            try LocalChanges.record(in: context, at: now)
        }
    }

    /// Deletes the articles in the trash for good (their `delete` operations were written when
    /// they were trashed). Articles with an unresolved conflict stay until the writer decides.
    public func emptyTrash() async throws -> EmptyTrashResult {
        let result = try await write { context, _ in
            var result = EmptyTrashResult()
            let trashed = FetchRequest<StoredArticle>(predicate: .isNotNil(\.trashed))
            var deleted: [UUID] = []
            for article in try context.fetch(trashed) {
                if article.syncState == .conflicted {
                    result.kept += 1
                } else {
                    deleted.append(article.id)
                    context.delete(article)
                    result.deleted += 1
                }
            }
            // Their histories go with them: an article deleted for good keeps no earlier text.
            try VersionHistory.removeHistory(of: deleted, in: context)
            return result
        }
        // Their attachments went with them (a cascade); now the files nothing refers to.
        try container.persistentStore.collectExternalBinaries()
        return result
    }
}

/// What emptying the trash did.
public struct EmptyTrashResult: Sendable, Hashable {
    /// Articles deleted for good.
    public var deleted = 0
    /// Articles left in the trash because they have an unresolved conflict.
    public var kept = 0
}
