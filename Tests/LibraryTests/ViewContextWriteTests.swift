import Foundation
import ObjectGraph
import Platform
import Testing
@testable import Library
import QuireTestSupport

/// The app's immediate changes (a pasted image, a tag chip, a status) are made in the view
/// context, which may hold a row older than the store's: another program saved it, or a
/// background operation's notice has not reached the main loop yet.
@Suite struct ViewContextWriteTests {
    @Test @MainActor func aChangeMeetingARowSavedElsewhereIsMadeAgainOnTheFreshRow() async throws {
        let folder = try TemporaryFolder()
        let url = folder.appending("library.quire")
        let app = try Library(url: url)
        let otherProgram = try Library(url: url)
        defer { app.close(); otherProgram.close() }
        let article = try await app.createArticle(ArticleContent(title: "Figures", body: "Text\n"))
        #expect(try LibraryNames.article(article.id, in: app.viewContext).title == "Figures")
        try await otherProgram.editArticle(article.id, title: "Figures, revised")

        let image = AttachmentSamples.png(bytes: 64)
        _ = try app.addAttachmentInViewContext(to: article.id, fileName: "figure.png", data: image)
        try app.setStatusInViewContext(.ready, for: [article.id])

        let stored = try await otherProgram.article(article.id)
        #expect(stored.title == "Figures, revised", "the other program's change is kept")
        #expect(stored.status == .ready)
        #expect(try await otherProgram.attachmentData(sha256: SHA256.hex(image), of: article.id) == image)
        #expect(try LibraryNames.article(article.id, in: app.viewContext).title == "Figures, revised")
    }

    @Test @MainActor func aChangeWhoseOutboxSequenceASaveElsewhereTookIsMadeAgain() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        defer { library.close() }
        let first = try await library.createArticle(ArticleContent(title: "First", body: "a\n"))
        let second = try await library.createArticle(ArticleContent(title: "Second", body: "b\n"))

        var attempts = 0
        try library.writeInViewContext { context, now in
            attempts += 1
            try ArticleEdits.setStatus(.ready, for: [first.id], in: context, at: now)
            guard attempts == 1 else { return }
            // A background save (the editor's autosave) takes the same next sequence meanwhile.
            let background = library.container.newBackgroundContext()
            try background.performAndWait {
                let article = try #require(try background.fetch(FetchRequest<StoredArticle>(predicate: \.id == second.id)).first)
                article.body = "b, later\n"
                try LocalChanges.record(in: background, at: now)
                _ = try background.save()
            }
        }

        #expect(attempts == 2)
        #expect(try await library.article(first.id).status == .ready)
        #expect(try await library.article(second.id).body == "b, later\n")
        #expect(try store.outbox().map(\.articleID) == [second.id, first.id])
    }
}
