import Foundation
import ObjectGraph
import Testing
import QuireTestSupport

/// Temporary and permanent IDs, across contexts and restarts.
@Suite struct ObjectIDTests {
    @Test func temporaryBecomesPermanentOnSave() throws {
        let stack = try TestStack()
        try stack.run { context in
            let article = Article(context: context)
            let temporary = article.objectID
            #expect(temporary.isTemporaryID)
            #expect(context.registeredObject(for: temporary) === article)
            #expect(try context.object(with: temporary) === article)

            let changes = try context.save()
            let permanent = article.objectID
            #expect(!permanent.isTemporaryID)
            #expect(permanent != temporary)
            #expect(changes.permanentIDs[temporary] == permanent)
            #expect(changes.inserted == [permanent])
            #expect(try context.existingObject(with: permanent) === article)
        }
    }

    @Test func temporaryIDsDoNotResolveInOtherContexts() throws {
        let stack = try TestStack()
        let inserting = stack.container.newBackgroundContext()
        let temporary = inserting.performAndWait { Article(context: inserting).objectID }
        try stack.run { other in
            #expect(throws: ObjectGraphError.temporaryIDNotResolvable(temporary)) { _ = try other.object(with: temporary) }
            #expect(other.registeredObject(for: temporary) == nil)
        }
        // Temporary keys are unique across the container's contexts.
        let another = stack.container.newBackgroundContext()
        let second = another.performAndWait { Article(context: another).objectID }
        #expect(second != temporary)
    }

    @Test func permanentIDsBeforeSaving() throws {
        let stack = try TestStack()
        let (early, article) = try stack.run { context -> (ManagedObjectID, ManagedObjectID) in
            let article = Article(context: context)
            article.title = "early"
            try context.obtainPermanentIDs(for: [article])
            let early = article.objectID
            #expect(!early.isTemporaryID && article.isInserted)
            #expect(try context.existingObject(with: early) === article)
            try context.save()
            return (early, article.objectID)
        }
        #expect(early == article)
        try stack.run { context throws in
            #expect(try context.existingObject(with: early, as: Article.self).title == "early")
        }
    }

    @Test func uriSurvivesARestart() throws {
        let directory = try TemporaryFolder()
        let uri = try {
            let stack = try TestStack(directory: directory)
            return try stack.run { context in
                let article = Article(context: context)
                article.title = "remembered"
                try context.save()
                return article.objectID.uriRepresentation
            }
        }()
        #expect(uri.scheme == "objectgraph")
        #expect(uri.path.hasPrefix("/Article/p"))

        let reopened = try TestStack(directory: directory)
        let id = try reopened.container.managedObjectID(forURIRepresentation: uri)
        try reopened.run { context throws in
            #expect(try context.existingObject(with: id, as: Article.self).title == "remembered")
        }

        let elsewhere = try TestStack()
        #expect(throws: ObjectGraphError.self) { _ = try elsewhere.container.managedObjectID(forURIRepresentation: uri) }
        #expect(throws: ObjectGraphError.invalidURI("https://example.org")) {
            _ = try reopened.container.managedObjectID(forURIRepresentation: URL(string: "https://example.org")!)
        }
    }

    @Test func idsFromAnotherStoreAreRefused() throws {
        let first = try TestStack()
        let second = try TestStack()
        let id = try first.run { context in
            let article = Article(context: context)
            try context.save()
            return article.objectID
        }
        try second.run { context in
            #expect(throws: ObjectGraphError.wrongStore(id)) { _ = try context.object(with: id) }
        }
    }

    @Test func deletedRowsKeepTheirKeys() throws {
        let stack = try TestStack()
        let (deleted, next) = try stack.run { context -> (ManagedObjectID, ManagedObjectID) in
            let first = Article(context: context)
            try context.save()
            let id = first.objectID
            context.delete(first)
            try context.save()
            let second = Article(context: context)
            try context.save()
            return (id, second.objectID)
        }
        #expect(deleted != next)
        try stack.run { context in
            #expect(throws: ObjectGraphError.objectNotFound(deleted)) { _ = try context.existingObject(with: deleted) }
        }
    }
}
