import Foundation
import ObjectGraph

extension StoredArticle {
    /// Before ``Reconciler`` takes the server's `version` into this article while it is in the
    /// trash (another device restored or changed an article deleted here): when its title or body
    /// is neither the version's nor `base`'s (the last the server had, nil after a deletion), this
    /// text exists only here, so it is kept as "Title (conflicted copy)" in the trash, on this
    /// device only. Text in the trash is never replaced without a trace; nothing deleted comes
    /// back either. Answers the copy, if one was made.
    @discardableResult
    func keepTrashedText(replacedBy version: ArticleContent, base: ArticleContent?, at now: Date) throws -> StoredArticle? {
        guard trashed != nil, title != version.title || body != version.body else { return nil }
        if let base, base.title == title, base.body == body { return nil }
        return try makeConflictedCopy(at: now)
    }
}
