import Foundation
import ObjectGraph
import Testing
import QuireTestSupport

/// Merging other contexts' saves: automatically into the view context and into children, and by hand.
@Suite struct MergeTests {
    /// Three articles "a", "b", "c" in a folder "F"; returns their IDs by title and the folder's.
    private func seed(_ stack: TestStack) throws -> (articles: [String: ManagedObjectID], folder: ManagedObjectID) {
        try stack.run { context in
            let folder = Folder(context: context)
            folder.name = "F"
            var ids: [String: Article] = [:]
            for title in ["a", "b", "c"] {
                let article = Article(context: context)
                article.title = title
                article.folder = folder
                ids[title] = article
            }
            try context.save()
            return (ids.mapValues(\.objectID), folder.objectID)
        }
    }

    @Test @MainActor func viewContextMergesBackgroundSavesAutomatically() async throws {
        let stack = try TestStack()
        let (ids, folderID) = try seed(stack)
        let view = stack.container.viewContext
        view.automaticallyMergesChangesFromParent = true
        let log = NotificationLog(view)
        let articles = try view.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.title)]))
        let folder = try view.existingObject(with: folderID, as: Folder.self)
        #expect(folder.articles.count == 3)

        let inserted = try await stack.container.performBackgroundTask { background in
            try background.existingObject(with: ids["a"]!, as: Article.self).title = "a2"
            background.delete(try background.existingObject(with: ids["c"]!))
            let article = Article(context: background)
            article.title = "d"
            article.folder = try background.existingObject(with: folderID, as: Folder.self)
            try background.save()
            return article.objectID
        }
        let merged = await eventually { !log.changes.isEmpty }
        #expect(merged)
        let change = try #require(log.changes.first)
        #expect(change.inserted == [inserted])
        #expect(change.deleted == [ids["c"]!])
        let refreshed = Dictionary(uniqueKeysWithValues: change.refreshed.map { ($0.objectID, $0.changedKeys.names) })
        #expect(refreshed == [ids["a"]!: ["title"], folderID: ["articles"]])

        // The objects held reflect the merge; the deleted one is gone, not a ghost.
        #expect(articles[0].title == "a2")
        #expect(articles[2].managedObjectContext == nil && articles[2].isDeleted)
        #expect(view.registeredObject(for: ids["c"]!) == nil)
        #expect(try view.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.title)])).map(\.title) == ["a2", "b", "d"])
        #expect(Set(folder.articles.map(\.title)) == ["a2", "b", "d"])
    }

    @Test @MainActor func editedObjectsKeepTheirValuesUntilTheirSaveMeetsThePolicy() async throws {
        let stack = try TestStack()
        let (ids, _) = try seed(stack)
        let view = stack.container.viewContext
        view.automaticallyMergesChangesFromParent = true
        let log = NotificationLog(view)
        let a = try view.existingObject(with: ids["a"]!, as: Article.self)
        let b = try view.existingObject(with: ids["b"]!, as: Article.self)
        a.title = "mine"
        view.processPendingChanges()

        try await stack.container.performBackgroundTask { background in
            let theirs = try background.existingObject(with: ids["a"]!, as: Article.self)
            theirs.title = "theirs"
            theirs.wordCount = 7
            try background.existingObject(with: ids["b"]!, as: Article.self).title = "b2"
            try background.save()
        }
        let refreshed = await eventually { log.changes.contains { !$0.refreshed.isEmpty } }
        #expect(refreshed)
        // The unedited object took the change; the edited one kept everything, and was not reported.
        #expect(log.changes.last?.refreshed.map(\.objectID) == [ids["b"]!])
        #expect(b.title == "b2")
        #expect(a.title == "mine" && a.wordCount == 0)

        let conflicts = try mergeConflicts { try view.save() }
        #expect(conflicts.first?.storeSnapshot?[attribute: "title"] == .string("theirs"))
        #expect(conflicts.first?.objectValues[attribute: "title"] == .string("mine"))
        view.mergePolicy = .mergeByPropertyObjectTrump
        let saved = try view.save()
        #expect(saved.resolvedConflicts.map(\.objectID) == [ids["a"]!])
        #expect(a.title == "mine" && a.wordCount == 7)
        try stack.run { context throws in
            let stored = try context.existingObject(with: ids["a"]!, as: Article.self)
            #expect(stored.title == "mine" && stored.wordCount == 7)
        }
    }

    @Test func mergingByHandRefreshesObjectsAndRelationships() throws {
        let stack = try TestStack()
        let (ids, folderID) = try seed(stack)
        let reader = stack.container.newBackgroundContext()
        let writer = stack.container.newBackgroundContext()
        try reader.performAndWait { () throws in
            #expect(try reader.existingObject(with: folderID, as: Folder.self).articles.count == 3)
        }
        let changes = try writer.performAndWait {
            let article = Article(context: writer)
            article.title = "d"
            article.folder = try writer.existingObject(with: folderID, as: Folder.self)
            try writer.existingObject(with: ids["b"]!, as: Article.self).folder = nil
            return try writer.save()
        }
        try reader.performAndWait {
            let log = NotificationLog(reader)
            reader.mergeChanges(fromContextDidSave: changes)
            let folder = try reader.existingObject(with: folderID, as: Folder.self)
            #expect(Set(folder.articles.map(\.title)) == ["a", "c", "d"])
            #expect(try reader.existingObject(with: ids["b"]!, as: Article.self).folder == nil)
            #expect(log.changes.count == 1 && log.changes.first?.inserted.count == 1)
        }
    }

    @Test func childrenMergeTheirSiblingsAndTheirParentsSaves() throws {
        let stack = try TestStack()
        let (ids, _) = try seed(stack)
        let parent = stack.container.newBackgroundContext()
        let editor = parent.newChildContext()
        let reader = parent.newChildContext()
        reader.automaticallyMergesChangesFromParent = true
        let (article, log) = try reader.performAndWait {
            (try reader.existingObject(with: ids["a"]!, as: Article.self), NotificationLog(reader))
        }
        try editor.performAndWait {
            try editor.existingObject(with: ids["a"]!, as: Article.self).title = "edited by a sibling"
            _ = try editor.save()
        }
        // The merge was queued on the reader's queue during the sibling's save, before this.
        reader.performAndWait {
            #expect(article.title == "edited by a sibling")
            #expect(log.changes.last?.refreshed.map(\.objectID) == [ids["a"]!])
        }

        let draft = try reader.performAndWait {
            let draft = Article(context: reader)
            draft.title = "draft"
            try reader.save()
            return draft
        }
        let temporaryID = reader.performAndWait { draft.objectID }
        _ = try parent.performAndWait { try parent.save() }
        reader.performAndWait {
            #expect(!draft.objectID.isTemporaryID)
            #expect(log.changes.last?.permanentIDs == [temporaryID: draft.objectID])
        }
    }
}
