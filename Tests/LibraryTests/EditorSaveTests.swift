import Foundation
import ObjectGraph
import Testing
@testable import Library
import QuireTestSupport

/// The editor's save (`saveEditorText`): the writer's text with its outbox operation in a
/// background context, a conflict when the title or body changed elsewhere since the text the
/// writer started from, anything else taken in under the text.
@Suite struct EditorSaveTests {
    @Test func theTextIsSavedWithItsOutboxOperationAndTheSessionsVersion() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        defer { library.close() }
        let article = try await library.createArticle(ArticleContent(title: "Tide", body: "Low at six.\n"))

        let outcome = try await library.saveEditorText(Library.EditorText(
            articleID: article.id, title: "Tides", body: "Low at six, high at noon.\n",
            base: (article.title, article.body), endingSession: true))

        guard case .saved(recordedVersion: true) = outcome else { Issue.record("not saved with a version: \(outcome)"); return }
        let saved = try await library.article(article.id)
        #expect(saved.title == "Tides")
        #expect(saved.body == "Low at six, high at noon.\n")
        #expect(saved.localRevision == article.localRevision + 1)
        let operations = try store.outbox(of: article.id)
        #expect(operations.count == 1, "the unsent operation takes the change")
        #expect(operations.first?.payload?.body == "Low at six, high at noon.\n")
        #expect(try await library.history(of: article.id).count == 1)
    }

    @Test func aBodyChangedElsewhereSinceTheBaseIsAConflictAndNothingIsSaved() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        defer { library.close() }
        let article = try await library.createArticle(ArticleContent(title: "Tide", body: "Low at six.\n"))
        let theirs = try await library.editArticle(article.id, body: "Low at seven.\n")

        let outcome = try await library.saveEditorText(Library.EditorText(
            articleID: article.id, title: "Tide", body: "Low at six. Calm.\n", base: (article.title, article.body)))

        guard case .conflict(let stored?) = outcome else { Issue.record("no conflict: \(outcome)"); return }
        #expect(stored.body == "Low at seven.\n")
        let kept = try await library.article(article.id)
        #expect(kept.body == "Low at seven.\n")
        #expect(kept.localRevision == theirs.localRevision)
    }

    @Test func otherChangesElsewhereAreTakenInUnderTheText() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        defer { library.close() }
        let article = try await library.createArticle(ArticleContent(title: "Tide", body: "Low at six.\n"))
        try await library.setFavorite(true, for: [article.id])
        // Another window saved the very text this one saves: nothing to decide.
        try await library.editArticle(article.id, title: "Tides")

        let outcome = try await library.saveEditorText(Library.EditorText(
            articleID: article.id, title: "Tides", body: "Low at six. Calm.\n", base: (article.title, article.body)))

        guard case .saved(recordedVersion: false) = outcome else { Issue.record("not saved: \(outcome)"); return }
        let saved = try await library.article(article.id)
        #expect(saved.isFavorite)
        #expect(saved.title == "Tides")
        #expect(saved.body == "Low at six. Calm.\n")
    }

    @Test func aDeletedArticleIsAConflictWithNothingStored() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        defer { library.close() }
        let article = try await library.createArticle(ArticleContent(title: "Tide", body: "Low at six.\n"))
        try await library.moveToTrash([article.id])
        _ = try await library.emptyTrash()

        let outcome = try await library.saveEditorText(Library.EditorText(
            articleID: article.id, title: "Tide", body: "Low at six. Calm.\n", base: (article.title, article.body)))

        guard case .conflict(nil) = outcome else { Issue.record("not a deletion: \(outcome)"); return }
        #expect(try await library.articles(matching: ArticleQuery()).isEmpty)
    }
}
