import Foundation
import ObjectGraph

/// The editor's save: the writer's text into the store in a background context of its own, so
/// that a book's save (the full-text index, the outbox payload, the commit's fsync) never holds
/// up the window. It is an operation like every other (``write(_:)``): the article, its outbox
/// operation and, when the editing session ends, its version commit together.
extension Library {
    /// What the editor saves: the writer's title and body (and a language they picked), and the
    /// title and body their text was written over.
    public struct EditorText: Sendable {
        /// The article's ID.
        public var articleID: UUID
        /// The title the writer sees.
        public var title: String
        /// The body the writer sees.
        public var body: String
        /// The language the writer picked, nil when unchanged.
        public var language: String?
        /// The title and body the editor showed before the writer's edits (as loaded or last
        /// saved): a store holding another title or body now was changed elsewhere meanwhile.
        public var base: (title: String, body: String)
        /// Whether this save ends the editing session (the text's version is recorded with it).
        public var endingSession: Bool

        /// The text to save over `base`.
        public init(
            articleID: UUID, title: String, body: String, language: String? = nil,
            base: (title: String, body: String), endingSession: Bool = false
        ) {
            self.articleID = articleID
            self.title = title
            self.body = body
            self.language = language
            self.base = base
            self.endingSession = endingSession
        }
    }

    /// What came of an editor's save.
    public enum EditorSaveOutcome: Sendable {
        /// The text is in the store; `recordedVersion` when the save recorded the session's version.
        case saved(recordedVersion: Bool)
        /// The article's title or body was changed elsewhere since the editor showed it (the sync
        /// worker, another window or program): nothing was saved, the writer decides. `theirs` is
        /// the article as stored now, nil when it was deleted.
        case conflict(theirs: ArticleSnapshot?)
    }

    /// Saves the editor's text with its outbox operation (``LocalChanges``), off the caller's
    /// thread. A change elsewhere of anything but the title and body (a star, a folder, the sync
    /// worker taking the pending operation) is taken in under the writer's text; a change of the
    /// title or body since `base` to something other than the writer's is a conflict, which saves
    /// nothing. Returns when the save has committed (or failed): only then is the text durable.
    public func saveEditorText(_ text: EditorText) async throws -> EditorSaveOutcome {
        try await write { context, now in
            let request = FetchRequest<StoredArticle>(predicate: \.id == text.articleID, fetchLimit: 1)
            guard let article = try context.fetch(request).first else { return .conflict(theirs: nil) }
            // Changed elsewhere since the base, to something other than the writer's text.
            let titleConflicts = article.title != text.base.title && article.title != text.title
            if titleConflicts || (article.body != text.base.body && article.body != text.body) {
                return .conflict(theirs: article.snapshot)
            }
            if article.title != text.title { article.title = text.title }
            if article.body != text.body { article.body = text.body }
            if let language = text.language, language != article.language { article.language = language }
            try LocalChanges.record(in: context, at: now)
            let recorded = try text.endingSession && Self.recordEndOfEditingSession(of: article.objectID, in: context, at: now)
            return .saved(recordedVersion: recorded)
        }
    }
}
