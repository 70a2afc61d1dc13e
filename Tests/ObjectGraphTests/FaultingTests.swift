import Foundation
import ObjectGraph
import Testing

/// Faults, batch faulting and prefetching, counted in SQL statements through the store's trace.
@Suite struct FaultingTests {
    /// 95 articles in three folders, each with two tags.
    private func savedArticles() throws -> TestStack {
        let stack = try TestStack()
        try stack.run { context in
            let folders = (0..<3).map { index -> Folder in
                let folder = Folder(context: context)
                folder.name = "Folder \(index)"
                return folder
            }
            let tags = (0..<4).map { index -> Tag in
                let tag = Tag(context: context)
                tag.name = "tag \(index)"
                return tag
            }
            for index in 0..<95 {
                let article = Article(context: context)
                article.title = "Article \(index)"
                article.wordCount = index
                article.folder = folders[index % 3]
                article.tags = [tags[index % 4], tags[(index + 1) % 4]]
            }
            try context.save()
        }
        stack.statements.reset()
        return stack
    }

    private let byWords = [FetchSortDescriptor<Article>.ascending(\.wordCount)]

    @Test func faultsFireInGroups() throws {
        let stack = try savedArticles()
        try stack.run { context in
            var request = FetchRequest<Article>(sortDescriptors: byWords)
            request.returnsObjectsAsFaults = true
            let articles = try context.fetch(request)
            #expect(stack.statements.selects.count == 1)
            #expect(articles.allSatisfy { $0.isFault })

            #expect(articles[3].title == "Article 3")
            #expect(stack.statements.selects.count == 2)
            #expect(articles.allSatisfy { !$0.isFault })
            #expect(articles.map(\.wordCount) == Array(0..<95))
            #expect(stack.statements.selects.count == 2)
        }
    }

    @Test func batchesLoadAroundTheElementTouched() throws {
        let stack = try savedArticles()
        try stack.run { context in
            var request = FetchRequest<Article>(sortDescriptors: byWords)
            request.fetchBatchSize = 10
            let articles = try context.fetch(request)
            #expect(articles.count == 95)
            #expect(stack.statements.selects.count == 1)
            #expect(context.registeredObjects.isEmpty)

            #expect(articles[25].wordCount == 25)
            #expect(stack.statements.selects.count == 2)
            #expect((20..<30).allSatisfy { !articles[$0].isFault })
            #expect(articles[29].title == "Article 29")
            #expect(stack.statements.selects.count == 2)
            #expect(context.registeredObjects.count == 10)

            #expect(articles[94].wordCount == 94)
            #expect(stack.statements.selects.count == 3)
        }
    }

    @Test func batchedFaultsWaitForAPropertyRead() throws {
        let stack = try savedArticles()
        try stack.run { context in
            var request = FetchRequest<Article>(sortDescriptors: byWords)
            request.fetchBatchSize = 20
            request.returnsObjectsAsFaults = true
            let articles = try context.fetch(request)
            let touched = articles[45]
            #expect(touched.isFault)
            #expect(stack.statements.selects.count == 1)
            #expect(touched.title == "Article 45")
            #expect(stack.statements.selects.count == 2)
            #expect(!articles[41].isFault && !articles[59].isFault)
        }
    }

    @Test func relationshipsAreFaultsUntilUsed() throws {
        let stack = try savedArticles()
        try stack.run { context in
            let article = try #require(try context.fetch(FetchRequest<Article>(predicate: \.wordCount == 4)).first)
            #expect(stack.statements.selects.count == 1)
            let folder = try #require(article.folder)
            #expect(folder.isFault)
            #expect(stack.statements.selects.count == 1)
            #expect(folder.name == "Folder 1")
            #expect(stack.statements.selects.count == 2)

            let siblings = folder.articles
            #expect(stack.statements.selects.count == 3)
            #expect(siblings.count == 32)
            #expect(siblings.contains(article))
            #expect(siblings.filter(\.isFault).count == 31)
            #expect(folder.$articles.count == 32)
            #expect(stack.statements.selects.count == 3)
        }
    }

    @Test func countingAToManyFaultDoesNotLoadIt() throws {
        let stack = try savedArticles()
        try stack.run { context in
            let folder = try #require(try context.fetch(FetchRequest<Folder>(predicate: \.name == "Folder 0")).first)
            #expect(folder.$articles.count == 32)
            #expect(context.registeredObjects.count == 1)
        }
    }

    @Test func prefetchingAvoidsOneQueryPerObject() throws {
        let stack = try savedArticles()
        try stack.run { context in
            var request = FetchRequest<Article>(sortDescriptors: byWords)
            request.prefetch(\.folder)
            request.prefetch(\.tags)
            let articles = try context.fetch(request)
            let afterFetch = stack.statements.selects.count
            #expect(afterFetch <= 4)
            let folderNames = Set(articles.compactMap { $0.folder?.name })
            let tagNames = Set(articles.flatMap { $0.tags.map(\.name) })
            #expect(folderNames.count == 3)
            #expect(tagNames.count == 4)
            #expect(stack.statements.selects.count == afterFetch)
        }
    }

    @Test func prefetchingWithBatches() throws {
        let stack = try savedArticles()
        try stack.run { context in
            var request = FetchRequest<Article>(sortDescriptors: byWords)
            request.fetchBatchSize = 30
            request.relationshipKeyPathsForPrefetching = ["folder", "tags"]
            let articles = try context.fetch(request)
            _ = articles[0].title
            let afterBatch = stack.statements.selects.count
            #expect((0..<30).allSatisfy { articles[$0].folder?.name.hasPrefix("Folder") == true && articles[$0].tags.count == 2 })
            #expect(stack.statements.selects.count == afterBatch)
        }
    }

    @Test func firingAFaultOfARowDeletedElsewhereThrows() throws {
        let stack = try savedArticles()
        let reader = stack.container.newBackgroundContext()
        let (id, faulted) = try reader.performAndWait {
            var request = FetchRequest<Article>(predicate: \.wordCount < 2, sortDescriptors: byWords)
            request.returnsObjectsAsFaults = true
            let articles = try reader.fetch(request)
            return (articles[0].objectID, articles.map(\.objectID))
        }
        #expect(faulted.count == 2)
        try stack.run { writer in
            writer.delete(try writer.existingObject(with: id))
            try writer.save()
        }
        try reader.performAndWait { () throws in
            let gone = try reader.object(with: id)
            #expect(gone.isFault)
            #expect(throws: ObjectGraphError.objectNotFound(id)) { try gone.fireFault() }
            #expect(throws: ObjectGraphError.objectNotFound(id)) { _ = try reader.existingObject(with: id) }
            #expect(throws: ObjectGraphError.objectNotFound(id)) { _ = try gone.value(forKey: "title") }

            // A typed read cannot throw: the object becomes inaccessible and reads as empty.
            let typed = try #require(gone as? Article)
            #expect(typed.title == "")
            #expect(typed.isInaccessible)
            #expect(typed.faultError as? ObjectGraphError == .objectNotFound(id))
            #expect(throws: ObjectGraphError.objectNotFound(id)) { try typed.fireFault() }

            // Its neighbour in the same fault group loaded fine.
            let neighbour = try reader.existingObject(with: faulted[1], as: Article.self)
            #expect(neighbour.title == "Article 1")
        }
    }

    @Test func detachedObjectsKeepLoadedValues() throws {
        let stack = try savedArticles()
        try stack.run { context in
            let loaded = try #require(try context.fetch(FetchRequest<Article>(predicate: \.wordCount == 7)).first)
            var request = FetchRequest<Article>(predicate: \.wordCount == 8)
            request.returnsObjectsAsFaults = true
            let fault = try #require(try context.fetch(request).first)
            context.reset()
            #expect(loaded.managedObjectContext == nil)
            #expect(loaded.title == "Article 7")
            #expect(throws: ObjectGraphError.self) { try fault.fireFault() }
        }
    }
}
