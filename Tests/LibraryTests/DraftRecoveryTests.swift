import Foundation
import Testing
import QuireTestSupport
import ObjectGraph
@testable import Library

/// Draft recovery: the editor's text kept apart from the article, offered back after a crash.
@Suite struct DraftRecoveryTests {
    @Test func draftsDifferingFromTheirArticleAreOfferedBack() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        let typed = try await library.createArticle(ArticleContent(title: "Typed", body: "saved text"))
        let saved = try await library.createArticle(ArticleContent(title: "Saved", body: "same"))
        try await library.saveDraft(for: typed.id, title: "Typed", body: "saved text, and more typing", at: Date(timeIntervalSince1970: 100))
        try await library.saveDraft(for: typed.id, title: "Typed!", body: "saved text, and even more typing", at: Date(timeIntervalSince1970: 200))
        try await library.saveDraft(for: saved.id, title: "Saved", body: "same")

        let drafts = try await library.unrecoveredDrafts()
        #expect(drafts.map(\.articleID) == [typed.id], "a draft equal to its article was saved after all")
        #expect(drafts[0].title == "Typed!")
        #expect(drafts[0].body == "saved text, and even more typing")
        #expect(drafts[0].saved == Date(timeIntervalSince1970: 200))
        #expect(drafts[0].article.body == "saved text")
        #expect(try store.outbox().count == 2, "writing a draft is not an edit")

        let restored = try await library.restoreDraft(for: typed.id)
        #expect(restored.title == "Typed!")
        #expect(restored.body == "saved text, and even more typing")
        #expect(try store.outbox(of: typed.id).last?.payload?.body == restored.body)
        #expect(try await library.unrecoveredDrafts() == [])
        await #expect(throws: LibraryError.draftNotFound(article: typed.id)) { try await library.restoreDraft(for: typed.id) }
    }

    @Test func discardingKeepsTheArticle() async throws {
        let store = try TemporaryLibrary()
        let article = try await store.library.createArticle(ArticleContent(title: "Keep", body: "kept"))
        try await store.library.saveDraft(for: article.id, title: "Keep", body: "unwanted")
        try await store.library.discardDraft(for: article.id)
        #expect(try await store.library.unrecoveredDrafts() == [])
        #expect(try await store.library.article(article.id).body == "kept")
    }

    @Test func deletingTheArticleDeletesItsDraft() async throws {
        let store = try TemporaryLibrary()
        let article = try await store.library.createArticle(ArticleContent(title: "Doomed", body: ""))
        try await store.library.saveDraft(for: article.id, title: "Doomed", body: "typing")
        try await store.library.moveToTrash([article.id])
        _ = try await store.library.emptyTrash()
        #expect(try await store.library.unrecoveredDrafts() == [])
    }

    @Test func theRecorderWritesAtOnceThenAtMostOncePerInterval() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        let article = try await library.createArticle(ArticleContent(title: "Live", body: ""))
        // An interval far longer than the test, so that only the first write can happen by itself.
        let recorder = DraftRecorder(library: library, interval: .seconds(3600))
        await recorder.record(articleID: article.id, title: "Live", body: "first keystrokes")
        #expect(try await eventually { try await library.unrecoveredDrafts().first?.body == "first keystrokes" })

        await recorder.record(articleID: article.id, title: "Live", body: "second")
        await recorder.record(articleID: article.id, title: "Live", body: "third")
        #expect(try await library.unrecoveredDrafts().first?.body == "first keystrokes", "within the interval nothing is written")
        try await recorder.flush()
        #expect(try await library.unrecoveredDrafts().first?.body == "third", "the latest text wins")

        try await recorder.finish(articleID: article.id)
        #expect(try await library.unrecoveredDrafts() == [])
    }

    /// Polls until `condition` holds; the recorder's first write happens on a task of its own.
    /// `finish` may begin while the recorder's last write of the text is still on its way to the
    /// store; that write must not land after the draft was removed, or the next start offers back
    /// text older than the article's.
    @Test func finishingWhileAWriteIsUnderWayLeavesNoDraft() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        let article = try await library.createArticle(ArticleContent(title: "Tide", body: ""))
        let recorder = DraftRecorder(library: library, interval: .zero)
        for round in 0..<60 {
            await recorder.record(articleID: article.id, title: "Tide", body: "typed \(round)")
            // Let the scheduled write start, so that it is awaiting the store when finish begins.
            await Task.yield()
            try await recorder.finish(articleID: article.id)
            let left = try await library.container.performBackgroundTask { context in
                try context.count(for: FetchRequest<DraftRecovery>())
            }
            #expect(left == 0, "round \(round): a draft written after finish survived")
            if left != 0 { break }
        }
    }
}
