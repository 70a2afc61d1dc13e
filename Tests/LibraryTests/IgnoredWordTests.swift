import Foundation
import ObjectGraph
import Testing
@testable import Library
import QuireTestSupport

/// The words the writer ignores in one article: kept in the library across a restart, for that
/// article only, never an edit (no outbox operation, no new revision), and gone with the article.
@Suite struct IgnoredWordTests {
    @Test func ignoredWordsLastForTheArticleOnlyAndAreNoEdit() async throws {
        let folder = try TemporaryFolder()
        let url = folder.appending("library.quire")
        let (letter, note): (ArticleSnapshot, ArticleSnapshot)
        do {
            let library = try Library(url: url)
            letter = try await library.createArticle(ArticleContent(title: "Letter", body: "Quirelike prose.\n"))
            note = try await library.createArticle(ArticleContent(title: "Note", body: "Quirelike too.\n"))
            let operations = try await Self.operationCount(library)
            try await MainActor.run {
                try library.ignoreWordInViewContext("Quirelike", in: letter.id)
                try library.ignoreWordInViewContext("Quirelike", in: letter.id)
                try library.ignoreWordInViewContext("Schreibkram", in: letter.id)
            }
            #expect(try await Self.operationCount(library) == operations, "ignoring a word is no edit to sync")
            #expect(try await library.article(letter.id).localRevision == letter.localRevision)
            library.close()
        }

        let reopened = try await Library.open(at: url)
        #expect(try await reopened.ignoredWords(in: letter.id) == ["Quirelike", "Schreibkram"])
        #expect(try await reopened.ignoredWords(in: note.id) == [])

        try await reopened.moveToTrash([letter.id])
        _ = try await reopened.emptyTrash()
        let left = try await reopened.container.performBackgroundTask { context in
            try context.count(for: FetchRequest<IgnoredWord>())
        }
        #expect(left == 0, "deleting the article deletes its ignored words")
    }

    static func operationCount(_ library: Library) async throws -> Int {
        try await library.container.performBackgroundTask { context in try context.count(for: FetchRequest<SyncOperation>()) }
    }
}
