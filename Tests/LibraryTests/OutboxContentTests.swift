import Foundation
import ObjectGraph
import SyncProtocol
import Testing
@testable import Library
import QuireTestSupport

/// An outbox put keeps no copy of the article's content while it waits: it sends the article as
/// stored (`SyncOperation.contentToSend()`), and the content is fixed in the row only when the
/// worker first sends it. Every save still changes the waiting row, so a save that races that
/// first send fails and records its change again instead of being left behind it.
@Suite struct OutboxContentTests {
    @Test func savesKeepNoCopyOfTheTextInTheOutbox() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        defer { library.close() }
        let article = try await library.createArticle(ArticleContent(title: "Tide", body: "Low at six.\n"))
        // A waiting operation as an earlier version of Quire wrote it, with a copy of the content.
        try store.inspect { context in
            let operation = try #require(try context.fetch(FetchRequest<SyncOperation>()).first)
            operation.payload = ArticlePayload(title: "Tide", body: "Low at six.\n")
            try context.save()
        }
        var base = (article.title, article.body)
        for body in ["Low at six.\nHigh at noon.\n", "Low at six.\nHigh at noon.\nCalm.\n"] {
            _ = try await library.saveEditorText(Library.EditorText(articleID: article.id, title: "Tide", body: body, base: base))
            base = ("Tide", body)
        }

        let outbox = try store.outbox(of: article.id)
        #expect(outbox.count == 1, "the waiting operation takes every save")
        #expect(outbox.first?.holdsContent == false, "the operation holds no copy of the text")
        #expect(outbox.first?.payload == (try await library.article(article.id)).content.payload, "it sends the article as stored")
    }

    @Test func aSaveThatRacesTheFirstSendIsRecordedAgainInANewOperation() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        defer { library.close() }
        let article = try await library.createArticle(ArticleContent(title: "Tide", body: "v1\n"))

        // A save reads the article and its waiting operation and records the writer's change ...
        let editing = library.container.newBackgroundContext()
        try editing.performAndWait {
            let stored = try #require(try editing.fetch(FetchRequest<StoredArticle>(predicate: \.id == article.id)).first)
            stored.body = "v2\n"
            try LocalChanges.record(in: editing)
        }
        // ... while the worker starts to send that operation with the text stored then.
        try store.startSending(operationOf: article.id)
        #expect(throws: ObjectGraphError.self, "the save must not pass the send it raced") {
            try editing.performAndWait { _ = try editing.save() }
        }

        // Saved again from a fresh read, as every Library operation does: the change follows in its own operation.
        _ = try await library.saveEditorText(Library.EditorText(articleID: article.id, title: "Tide", body: "v2\n", base: ("Tide", "v1\n")))
        let outbox = try store.outbox(of: article.id)
        #expect(outbox.map(\.state) == [.sending, .pending])
        #expect(outbox.map { $0.payload?.body } == ["v1\n", "v2\n"])
    }

    @Test func aContextThatReadTheOutboxEarlierStillMovesTheOperationToTheEnd() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        defer { library.close() }
        let first = try await library.createArticle(ArticleContent(title: "First", body: "a\n"))
        let second = try await library.createArticle(ArticleContent(title: "Second", body: "b\n"))
        // A context (the view context, say) reads the outbox; then a save elsewhere moves the
        // first article's operation to the end.
        let context = library.container.newBackgroundContext()
        try context.performAndWait { _ = try context.fetch(FetchRequest<SyncOperation>()) }
        try await library.editArticle(first.id, body: "a, later\n")

        try context.performAndWait {
            let stored = try #require(try context.fetch(FetchRequest<StoredArticle>(predicate: \.id == second.id)).first)
            stored.body = "b, later\n"
            try LocalChanges.record(in: context)
            _ = try context.save()
        }
        let outbox = try store.outbox()
        #expect(outbox.map(\.articleID) == [first.id, second.id], "the operation saved last is last")
        #expect(Set(outbox.map(\.sequence)).count == 2)
    }

    @Test func theContentToSendIsTheArticleAsStoredNotAsTheContextReadItEarlier() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        defer { library.close() }
        try await library.createFolder(named: "Harbour")
        let article = try await library.createArticle(ArticleContent(title: "Tide", body: "v1\n", folder: "Harbour"))

        // The worker's context read the article and its folder earlier in its transaction ...
        let worker = library.container.newBackgroundContext()
        try worker.performAndWait {
            let stored = try #require(try worker.fetch(FetchRequest<StoredArticle>(predicate: \.id == article.id)).first)
            #expect(stored.payload.folder == "Harbour")
        }
        // ... then the writer saved an edit and renamed the folder.
        try await library.editArticle(article.id, body: "v2\n")
        try await library.renameFolder("Harbour", to: "Port")

        let sent = try worker.performAndWait {
            let operation = try #require(try worker.fetch(FetchRequest<SyncOperation>(predicate: \.articleID == article.id)).first)
            return try operation.contentToSend()
        }
        #expect(sent?.body == "v2\n")
        #expect(sent?.folder == "Port")
    }
}
