import Foundation
import ObjectGraph
import Testing

/// Rolling back changes of an object whose row a merge found changed or deleted meanwhile: the
/// object must not come back with the values it had before the merge.
@Suite struct RollbackAfterMergeTests {
    @Test @MainActor func rolledBackObjectsLoadTheRowAsItIsNow() throws {
        let stack = try TestStack()
        let ids = try stack.run { context -> [ManagedObjectID] in
            let articles = (0..<2).map { index in
                let article = Article(context: context)
                article.title = "article \(index)"
                article.wordCount = index
                return article
            }
            try context.save()
            return articles.map(\.objectID)
        }
        let view = stack.container.viewContext
        let changed = try view.existingObject(with: ids[0], as: Article.self)
        let deleted = try view.existingObject(with: ids[1], as: Article.self)
        changed.title = "edited here"
        deleted.title = "edited here too"
        let changes = try stack.run { context in
            try context.existingObject(with: ids[0], as: Article.self).wordCount = 42
            context.delete(try context.existingObject(with: ids[1]))
            return try context.save()
        }
        view.mergeChanges(fromContextDidSave: changes)
        #expect(changed.title == "edited here" && changed.wordCount == 0, "a merge leaves changed objects alone")

        let log = NotificationLog(view)
        view.rollback()
        #expect(changed.isFault)
        #expect(changed.title == "article 0" && changed.wordCount == 42, "the row as the other context saved it")
        #expect(deleted.isFault)
        #expect(throws: ObjectGraphError.objectNotFound(ids[1])) { try deleted.fireFault() }
        let refreshed = try #require(log.changes.last).refreshed
        #expect(refreshed.map(\.objectID) == [ids[0], ids[1]])
        #expect(refreshed.allSatisfy { $0.changedKeys.contains("wordCount") }, "every key may differ")
    }

    @Test @MainActor func rollbackWithoutMergesRestoresValuesWithoutLoading() throws {
        let stack = try TestStack()
        let id = try stack.run { context -> ManagedObjectID in
            let article = Article(context: context)
            article.title = "saved"
            try context.save()
            return article.objectID
        }
        let view = stack.container.viewContext
        let article = try view.existingObject(with: id, as: Article.self)
        article.title = "edited"
        view.rollback()
        #expect(!article.isFault && article.title == "saved")
    }
}
