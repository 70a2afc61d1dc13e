import Foundation
import ObjectGraph

/// Draft recovery: the editor's text, written apart from the article at most every two seconds
/// (``DraftRecorder`` paces it), so that a killed app loses at most the last two seconds of
/// typing. Drafts are not edits: writing one changes no article and no outbox.
extension Library {
    /// Writes the editor's text for an article, replacing its previous draft.
    public func saveDraft(for articleID: UUID, title: String, body: String, at time: Date = Date()) async throws {
        try await write { context, _ in
            let article = try LibraryNames.article(articleID, in: context)
            let draft = article.drafts.first ?? DraftRecovery(context: context)
            draft.article = article
            if draft.title != title { draft.title = title }
            if draft.body != body { draft.body = body }
            draft.saved = time
        }
    }

    /// The drafts whose text differs from their saved article, oldest first: what to offer back on
    /// start. (A draft equal to its article was saved after all; ``discardDraft(for:)`` removes it.)
    public func unrecoveredDrafts() async throws -> [RecoveredDraft] {
        try await read { context in
            try context.fetch(FetchRequest<DraftRecovery>(sortDescriptors: [.ascending(\.saved)])).compactMap { draft in
                guard let article = draft.article, draft.title != article.title || draft.body != article.body else { return nil }
                return RecoveredDraft(
                    articleID: article.id, title: draft.title, body: draft.body, saved: draft.saved, article: article.snapshot)
            }
        }
    }

    /// Saves the draft's text as the article's (an ordinary edit, with its outbox operation) and
    /// removes the draft, in one save.
    @discardableResult
    public func restoreDraft(for articleID: UUID) async throws -> ArticleSnapshot {
        try await write { context, now in
            let article = try LibraryNames.article(articleID, in: context)
            guard let draft = article.drafts.first else { throw LibraryError.draftNotFound(article: articleID) }
            if article.title != draft.title { article.title = draft.title }
            if article.body != draft.body { article.body = draft.body }
            context.delete(draft)
            try LocalChanges.record(in: context, at: now)
            return article.snapshot
        }
    }

    /// Removes an article's draft (the writer declined it, or the editor saved and closed).
    public func discardDraft(for articleID: UUID) async throws {
        try await write { context, _ in
            let article = try LibraryNames.article(articleID, in: context)
            for draft in article.drafts { context.delete(draft) }
        }
    }
}
