import Foundation
import ObjectGraph
import Testing

/// objects-did-change, will-save and did-save: what they carry and when they come.
@Suite struct NotificationTests {
    @Test func editsAreAnnouncedTogetherAndOnce() throws {
        let stack = try TestStack()
        let (editedID, deletedID) = try stack.run { context in
            let edited = Article(context: context)
            edited.title = "edited"
            let deleted = Article(context: context)
            deleted.title = "deleted"
            try context.save()
            return (edited.objectID, deleted.objectID)
        }
        try stack.run { context in
            let log = NotificationLog(context)
            let inserted = Article(context: context)
            inserted.title = "new"
            let edited = try context.existingObject(with: editedID, as: Article.self)
            edited.title = "changed"
            edited.wordCount = 3
            context.delete(try context.existingObject(with: deletedID))
            let ephemeral = Article(context: context)
            context.delete(ephemeral)
            #expect(log.changes.isEmpty)

            context.processPendingChanges()
            #expect(log.changes.count == 1)
            let change = try #require(log.changes.first)
            #expect(change.inserted == [inserted.objectID])
            #expect(change.updated.map(\.objectID) == [editedID])
            #expect(change.updated.first?.changedKeys.names == ["title", "wordCount"])
            #expect(change.updated.first?.changedKeys.contains("title") == true)
            #expect(change.deleted == [deletedID])
            context.processPendingChanges()
            #expect(log.changes.count == 1)

            // An announced insert that changes again is announced as updated.
            inserted.title = "renamed"
            context.processPendingChanges()
            #expect(log.changes.last?.updated.map(\.objectID) == [inserted.objectID])
        }
    }

    @Test func saveAnnouncesEditsAndDeleteRulesThenWillSaveThenDidSave() throws {
        let stack = try TestStack()
        let articleID = try stack.run { context in
            let article = Article(context: context)
            let summary = Summary(context: context)
            article.summary = summary
            try context.save()
            return article.objectID
        }
        try stack.run { context in
            let log = NotificationLog(context)
            let article = try context.existingObject(with: articleID, as: Article.self)
            let summaryID = try #require(article.summary).objectID
            context.delete(article)
            let inserted = Folder(context: context)
            inserted.name = "new"
            let temporaryID = inserted.objectID
            let changes = try context.save()
            #expect(log.kinds == ["change", "change", "willSave", "didSave"])
            // The cascade to the summary is announced before the save, like the edits.
            #expect(log.changes[0].deleted == [articleID] && log.changes[0].inserted == [temporaryID])
            #expect(log.changes[1].deleted == [summaryID])
            guard case .willSave(let willInsert, _, let willDelete) = log.all[2],
                  case .didSave(let saved) = log.all[3] else {
                Issue.record("unexpected notifications \(log.kinds)")
                return
            }
            #expect(willInsert == [temporaryID] && Set(willDelete) == [articleID, summaryID])
            #expect(saved.permanentIDs == [temporaryID: inserted.objectID])
            #expect(saved.inserted == changes.inserted)
        }
    }

    @Test func rollbackAndResetAreAnnounced() throws {
        let stack = try TestStack()
        let (editedID, deletedID) = try stack.run { context in
            let edited = Article(context: context)
            let deleted = Article(context: context)
            try context.save()
            return (edited.objectID, deleted.objectID)
        }
        try stack.run { context in
            let log = NotificationLog(context)
            let inserted = Article(context: context)
            try context.existingObject(with: editedID, as: Article.self).title = "changed"
            context.delete(try context.existingObject(with: deletedID))
            context.processPendingChanges()
            context.rollback()
            let rolledBack = try #require(log.changes.last)
            #expect(rolledBack.deleted == [inserted.objectID])
            #expect(rolledBack.refreshed.map(\.objectID) == [editedID])
            #expect(rolledBack.refreshed.first?.changedKeys.names == ["title"])
            #expect(rolledBack.inserted == [deletedID])

            context.reset()
            #expect(log.changes.last?.invalidatedAll == true)
        }
    }

    @Test func editsArriveThroughTheAsyncSequenceWithoutBeingAskedFor() async throws {
        let stack = try TestStack()
        let context = stack.container.newBackgroundContext()
        let notifications = context.notifications()
        let id = await context.perform {
            let article = Article(context: context)
            article.title = "async"
            return article.objectID
        }
        // The context announced the insert on its queue after the work that made it.
        var iterator = notifications.makeAsyncIterator()
        guard case .objectsDidChange(let change)? = await iterator.next() else {
            Issue.record("no objects-did-change")
            return
        }
        #expect(change.inserted == [id])
    }

    @Test func cancelledObserversHearNothing() throws {
        let stack = try TestStack()
        try stack.run { context in
            let log = NotificationLog(context)
            log.stop()
            _ = Article(context: context)
            context.processPendingChanges()
            try context.save()
            #expect(log.all.isEmpty)
        }
    }
}
