import Foundation
import ObjectGraph
import Testing

@Suite struct SmokeTests {
    @Test func insertSaveFetch() throws {
        let stack = try TestStack()
        try stack.run { context in
            let folder = Folder(context: context)
            folder.name = "Drafts"
            let article = Article(context: context)
            article.title = "Hello"
            article.folder = folder
            try context.save()
            #expect(!article.objectID.isTemporaryID)
            #expect(folder.articles.count == 1)
        }
        try stack.run { context in
            let articles = try context.fetch(FetchRequest<Article>(predicate: \.title == "Hello"))
            #expect(articles.count == 1)
            #expect(articles.first?.folder?.name == "Drafts")
        }
    }
}
