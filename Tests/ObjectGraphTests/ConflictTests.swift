import Foundation
import ObjectGraph
import Testing

/// Optimistic locking: a save never overwrites a row changed or deleted since it was read.
@Suite struct ConflictTests {
    private func savedArticle(_ stack: TestStack) throws -> ManagedObjectID {
        try stack.run { context in
            let article = Article(context: context)
            article.title = "v1"
            try context.save()
            return article.objectID
        }
    }

    @Test func staleUpdateFailsAndWritesNothing() throws {
        let stack = try TestStack()
        let id = try savedArticle(stack)
        let slow = stack.container.newBackgroundContext()
        let slowArticle = try slow.performAndWait { try slow.existingObject(with: id, as: Article.self) }

        try stack.run { fast in
            try fast.existingObject(with: id, as: Article.self).title = "fast"
            try fast.save()
        }
        try slow.performAndWait { () throws in
            slowArticle.title = "slow"
            let other = Article(context: slow)
            other.title = "inserted with the stale update"
            do {
                try slow.save()
                Issue.record("a stale update was saved")
            } catch ObjectGraphError.mergeConflicts(let conflicts) {
                #expect(conflicts.map(\.objectID) == [id])
                #expect(conflicts.first?.snapshotVersion == 1 && conflicts.first?.storeVersion == 2)
                #expect(conflicts.first?.objectSnapshot?[attribute: "title"] == .string("v1"))
                #expect(conflicts.first?.storeSnapshot?[attribute: "title"] == .string("fast"))
                #expect(conflicts.first?.objectValues[attribute: "title"] == .string("slow"))
                #expect(conflicts.first?.changedKeys == ["title"])
            }
            #expect(slow.hasChanges)
            #expect(other.objectID.isTemporaryID)
        }
        try stack.run { context in
            #expect(try context.existingObject(with: id, as: Article.self).title == "fast")
            let count = try context.count(for: FetchRequest<Article>())
            #expect(count == 1)
        }
        // After refreshing, the slow context can save its change on top of the new version.
        try slow.performAndWait {
            try slow.refresh(slowArticle, mergeChanges: true)
            try slow.save()
        }
        try stack.run { context throws in
            #expect(try context.existingObject(with: id, as: Article.self).title == "slow")
        }
    }

    @Test func updateOfARowDeletedElsewhere() throws {
        let stack = try TestStack()
        let id = try savedArticle(stack)
        let editor = stack.container.newBackgroundContext()
        let article = try editor.performAndWait { try editor.existingObject(with: id, as: Article.self) }
        try stack.run { context in
            context.delete(try context.existingObject(with: id))
            try context.save()
        }
        try editor.performAndWait { () throws in
            article.title = "edited after delete"
            let conflicts = try mergeConflicts { try editor.save() }
            #expect(conflicts.map(\.objectID) == [id])
            #expect(conflicts.first?.storeVersion == nil && conflicts.first?.storeSnapshot == nil)
            #expect(conflicts.first?.deletesObject == false)
        }
    }

    @Test func deleteOfAChangedRow() throws {
        let stack = try TestStack()
        let id = try savedArticle(stack)
        let deleter = stack.container.newBackgroundContext()
        let article = try deleter.performAndWait { try deleter.existingObject(with: id) }
        try stack.run { context in
            try context.existingObject(with: id, as: Article.self).title = "changed"
            try context.save()
        }
        try deleter.performAndWait { () throws in
            deleter.delete(article)
            let conflicts = try mergeConflicts { try deleter.save() }
            #expect(conflicts.map(\.objectID) == [id])
            #expect(conflicts.first?.snapshotVersion == 1 && conflicts.first?.storeVersion == 2)
            #expect(conflicts.first?.deletesObject == true)
        }
    }
}
