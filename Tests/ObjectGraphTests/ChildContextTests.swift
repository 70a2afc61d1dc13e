import Foundation
import ObjectGraph
import Testing

/// Parent and child contexts: reading through the parent, saving into it, and IDs along the chain.
@Suite struct ChildContextTests {
    /// A store with two folders and an article in "Inbox"; returns the article's ID.
    private func seed(_ stack: TestStack) throws -> ManagedObjectID {
        try stack.run { context in
            let inbox = Folder(context: context)
            inbox.name = "Inbox"
            let archive = Folder(context: context)
            archive.name = "Archive"
            let article = Article(context: context)
            article.title = "saved"
            article.folder = inbox
            try context.save()
            return article.objectID
        }
    }

    @Test func childSeesTheParentsUnsavedStateAndKeepsItsOwnEdits() throws {
        let stack = try TestStack()
        let id = try seed(stack)
        let parent = stack.container.newBackgroundContext()
        try parent.performAndWait {
            let article = try parent.existingObject(with: id, as: Article.self)
            article.title = "edited in parent"
            let archive = try #require(try parent.fetch(FetchRequest<Folder>(predicate: \.name == "Archive")).first)
            article.folder = archive
            let draft = Article(context: parent)
            draft.title = "inserted in parent"

            let child = parent.newChildContext()
            try child.performAndWait {
                let titles = try child.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.title)])).map(\.title)
                #expect(titles == ["edited in parent", "inserted in parent"])
                let childArticle = try child.existingObject(with: id, as: Article.self)
                #expect(childArticle.folder?.name == "Archive")
                let archive = try #require(try child.fetch(FetchRequest<Folder>(predicate: \.name == "Archive")).first)
                #expect(archive.articles.map(\.title) == ["edited in parent"])
                #expect(try child.count(for: FetchRequest<Article>(predicate: \.folder?.name == "Archive")) == 1)
                #expect(try child.existingObject(with: draft.objectID, as: Article.self).title == "inserted in parent")

                childArticle.title = "edited in child"
                #expect(try child.fetch(FetchRequest<Article>(predicate: \.title == "edited in child")).count == 1)
                child.rollback()
                #expect(childArticle.title == "edited in parent")
            }
            #expect(article.title == "edited in parent")
        }
    }

    @Test func childSaveReachesOnlyTheParentAndIDsBecomePermanentAlongTheChain() throws {
        let stack = try TestStack()
        let id = try seed(stack)
        let parent = stack.container.newBackgroundContext()
        try parent.performAndWait {
            let child = parent.newChildContext()
            let grandchild = child.newChildContext()
            let (inserted, temporaryID) = try grandchild.performAndWait {
                let article = try grandchild.existingObject(with: id, as: Article.self)
                article.title = "edited in grandchild"
                let inserted = Article(context: grandchild)
                inserted.title = "new in grandchild"
                inserted.folder = article.folder
                stack.statements.reset()
                let changes = try grandchild.save()
                #expect(changes.inserted == [inserted.objectID] && inserted.objectID.isTemporaryID)
                // The folder's articles changed too (the inverse of the insert's folder).
                #expect(Set(changes.updated) == [id, try #require(article.folder).objectID])
                return (inserted, inserted.objectID)
            }
            _ = try child.performAndWait { try child.save() }
            #expect(!stack.statements.all.contains { $0.hasPrefix("INSERT") || $0.hasPrefix("UPDATE") || $0.hasPrefix("BEGIN") })
            #expect(parent.hasChanges)
            let parentCopy = try parent.existingObject(with: temporaryID, as: Article.self)
            #expect(parentCopy.title == "new in grandchild")
            #expect(parentCopy.folder?.name == "Inbox")
            #expect(try parent.existingObject(with: id, as: Article.self).title == "edited in grandchild")

            let saved = try parent.save()
            let permanentID = try #require(saved.permanentIDs[temporaryID])
            #expect(!permanentID.isTemporaryID && parentCopy.objectID == permanentID)
            try child.performAndWait {
                let childCopy = try child.existingObject(with: permanentID)
                #expect(childCopy.objectID == permanentID)
                #expect(try child.existingObject(with: temporaryID) === childCopy)
            }
            try grandchild.performAndWait { () throws in
                #expect(inserted.objectID == permanentID)
                #expect(try grandchild.existingObject(with: permanentID) === inserted)
            }
        }
        try stack.run { context in
            let stored = try context.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.title)]))
            #expect(stored.map(\.title) == ["edited in grandchild", "new in grandchild"])
            #expect(stored.allSatisfy { $0.folder?.name == "Inbox" })
        }
    }

    @Test func childDeletesApplyTheirRulesAndRollbacksStayLocal() throws {
        let stack = try TestStack()
        let id = try seed(stack)
        let summaryID = try stack.run { context in
            let summary = Summary(context: context)
            summary.text = "abstract"
            try context.existingObject(with: id, as: Article.self).summary = summary
            try context.save()
            return summary.objectID
        }
        let parent = stack.container.newBackgroundContext()
        try parent.performAndWait {
            let child = parent.newChildContext()
            try child.performAndWait {
                child.delete(try child.existingObject(with: id))
                let changes = try child.save()
                #expect(Set(changes.deleted) == [id, summaryID])
            }
            #expect(Set(parent.deletedObjects.map(\.objectID)) == [id, summaryID])
            let inbox = try #require(try parent.fetch(FetchRequest<Folder>(predicate: \.name == "Inbox")).first)
            #expect(inbox.articles.isEmpty)
            parent.rollback()
            #expect(try parent.count(for: FetchRequest<Article>()) == 1)
        }
        try stack.run { context throws in #expect(try context.count(for: FetchRequest<Summary>()) == 1) }
    }

    @Test func aChildsStaleChangeIsAConflictForItsPolicy() throws {
        let stack = try TestStack()
        let id = try seed(stack)
        let parent = stack.container.newBackgroundContext()
        try parent.performAndWait {
            let child = parent.newChildContext()
            let childArticle = try child.performAndWait { try child.existingObject(with: id, as: Article.self) }
            // The parent changes the title after the child read it.
            try parent.existingObject(with: id, as: Article.self).title = "parent's title"
            try child.performAndWait {
                childArticle.title = "child's title"
                childArticle.wordCount = 42
                let conflicts = try mergeConflicts { try child.save() }
                #expect(conflicts.first?.objectSnapshot?[attribute: "title"] == .string("saved"))
                #expect(conflicts.first?.storeSnapshot?[attribute: "title"] == .string("parent's title"))
                #expect(conflicts.first?.objectValues[attribute: "title"] == .string("child's title"))
                #expect(child.hasChanges)

                child.mergePolicy = .mergeByPropertyStoreTrump
                let changes = try child.save()
                #expect(changes.resolvedConflicts.map(\.objectID) == [id])
                #expect(childArticle.title == "parent's title" && childArticle.wordCount == 42)
            }
            let article = try parent.existingObject(with: id, as: Article.self)
            #expect(article.title == "parent's title" && article.wordCount == 42)
        }
    }

    @Test @MainActor func draftContextOfTheViewContext() throws {
        let stack = try TestStack()
        let id = try seed(stack)
        let viewContext = stack.container.viewContext
        let draft = viewContext.newChildContext()
        #expect(draft.isMainQueueContext && draft.parent === viewContext)
        var heard: [ObjectsDidChange] = []
        let observation = viewContext.addObserver { notification in
            if case .objectsDidChange(let change) = notification { heard.append(change) }
        }
        defer { observation.cancel() }

        let article = try draft.existingObject(with: id, as: Article.self)
        article.body = "The first sentence."
        try draft.save()
        // The view context announced the edit when the draft's save reached it.
        #expect(heard.count == 1)
        #expect(heard.first?.updated.map(\.objectID) == [id])
        #expect(heard.first?.updated.first?.changedKeys.names == ["body"])
        #expect(viewContext.hasChanges)
        try viewContext.save()
        try stack.run { context throws in
            #expect(try context.existingObject(with: id, as: Article.self).body == "The first sentence.")
        }
    }
}
