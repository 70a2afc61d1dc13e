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
}
