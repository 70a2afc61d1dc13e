import Foundation
@testable import ObjectGraph
import Testing

/// The identity map, change tracking, rollback, reset and refresh.
@Suite struct ContextTests {
    @Test func oneObjectPerIDPerContext() throws {
        let stack = try TestStack()
        let id = try stack.run { context in
            let article = Article(context: context)
            article.title = "one"
            try context.save()
            return article.objectID
        }
        let first = stack.container.newBackgroundContext()
        let second = stack.container.newBackgroundContext()
        try first.performAndWait { () throws in
            let fetched = try #require(try first.fetch(FetchRequest<Article>()).first)
            let byID = try first.existingObject(with: id)
            let faulted = try first.object(with: id)
            let again = try #require(try first.fetch(FetchRequest<Article>(predicate: \.title == "one")).first)
            #expect(fetched === byID && byID === faulted && faulted === again)
            #expect(first.registeredObject(for: id) === fetched)
            fetched.title = "changed here"
            #expect(try first.fetch(FetchRequest<Article>()).first?.title == "changed here")
        }
        try second.performAndWait { () throws in
            let other = try second.existingObject(with: id, as: Article.self)
            #expect(other.title == "one")
        }
    }

    @Test func changeTracking() throws {
        let stack = try TestStack()
        try stack.run { context in
            let article = Article(context: context)
            article.title = "draft"
            let folder = Folder(context: context)
            folder.name = "f"
            #expect(context.hasChanges)
            #expect(context.insertedObjects == [article, folder])
            #expect(article.isInserted && !article.isUpdated)
            let changes = try context.save()
            #expect(changes.inserted.count == 2 && changes.updated.isEmpty)
            #expect(!context.hasChanges)
            #expect(!article.hasChanges)

            article.title = "draft"                     // same value: no change
            #expect(!context.hasChanges)
            article.title = "final"
            article.scratch = "transient"
            #expect(article.isUpdated && context.updatedObjects == [article])
            #expect(article.hasPersistentChangedValues)
            #expect(article.changedValues()["title"] as? String == "final")
            #expect(article.committedValues(forKeys: ["title"])["title"] as? String == "draft")

            context.delete(folder)
            #expect(folder.isDeleted && context.deletedObjects == [folder])
            let saved = try context.save()
            #expect(saved.updated == [article.objectID])
            #expect(saved.changedKeys[article.objectID] == ["title", "scratch"])
            #expect(saved.deleted == [folder.objectID])
            #expect(folder.managedObjectContext == nil)
            #expect(article.committedValues(forKeys: ["title"])["title"] as? String == "final")
        }
    }

    @Test func onlyTransientChangesWriteNothing() throws {
        let stack = try TestStack()
        try stack.run { context in
            let article = Article(context: context)
            try context.save()
            article.scratch = "notes"
            #expect(article.isUpdated && !article.hasPersistentChangedValues)
            stack.statements.reset()
            let changes = try context.save()
            #expect(changes.updated.isEmpty)
            #expect(!stack.statements.all.contains { $0.hasPrefix("UPDATE") })
        }
    }

    @Test func rollbackRestoresSavedState() throws {
        let stack = try TestStack()
        try stack.run { context in
            let folder = Folder(context: context)
            folder.name = "kept"
            let article = Article(context: context)
            article.title = "saved"
            article.folder = folder
            try context.save()

            article.title = "edited"
            article.folder = nil
            let inserted = Article(context: context)
            context.delete(folder)
            context.rollback()

            #expect(article.title == "saved")
            #expect(article.folder === folder)
            #expect(folder.articles.contains(article))
            #expect(!folder.isDeleted)
            #expect(inserted.managedObjectContext == nil)
            #expect(!context.hasChanges)
            #expect(try context.count(for: FetchRequest<Article>()) == 1)
        }
    }

    @Test func resetForgetsEverything() throws {
        let stack = try TestStack()
        try stack.run { context in
            let article = Article(context: context)
            article.title = "saved"
            try context.save()
            article.title = "unsaved"
            context.reset()
            #expect(context.registeredObjects.isEmpty && !context.hasChanges)
            #expect(article.managedObjectContext == nil)
            #expect(try context.fetch(FetchRequest<Article>()).first?.title == "saved")
        }
    }

    @Test func refreshDiscardsOrMerges() throws {
        let stack = try TestStack()
        let id = try stack.run { context in
            let article = Article(context: context)
            article.title = "v1"
            article.wordCount = 1
            try context.save()
            return article.objectID
        }
        let reader = stack.container.newBackgroundContext()
        let article = try reader.performAndWait { try reader.existingObject(with: id, as: Article.self) }
        try stack.run { writer in
            let other = try writer.existingObject(with: id, as: Article.self)
            other.title = "v2 title"
            other.wordCount = 2
            try writer.save()
        }
        try reader.performAndWait { () throws in
            article.wordCount = 10
            try reader.refresh(article, mergeChanges: true)
            #expect(article.title == "v2 title")        // from the store
            #expect(article.wordCount == 10)            // own change kept
            try reader.save()                           // no conflict: the snapshot is current

            article.title = "local"
            try reader.refresh(article, mergeChanges: false)
            #expect(article.isFault)
            #expect(article.title == "v2 title")
            #expect(!reader.hasChanges)
        }
    }

    @Test func unreferencedObjectsAreReleased() throws {
        let stack = try TestStack()
        try stack.run { context in
            for index in 0..<10 {
                let article = Article(context: context)
                article.title = "\(index)"
            }
            try context.save()
            context.reset()

            var kept: [Article] = []
            do {
                let all = try context.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.title)]))
                kept = [all[0], all[1]]
                all[2].title = "changed"
            }
            #expect(context.registeredObjects.count == 10)
            context.releaseUnreferencedObjects()
            #expect(context.registeredObjects.count == 3)   // two held here, one with a change

            let again = try context.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.title)]))
            #expect(again[0] === kept[0] && again[1] === kept[1])
            #expect(again.contains { $0.title == "changed" })
            #expect(again.count == 10)
        }
    }

    @Test func identityMapKeepsEveryKey() {
        var map = IdentityMap()
        let entity = EntityModel.placeholder
        var objects: [Int64: ManagedObject] = [:]
        // Dense runs, strided keys that share low bits, and removals in between.
        let keys: [Int64] = Array(1...300) + (1...200).map { Int64($0) << 20 } + (1...50).map { Int64($0) * 4096 + 7 }
        for key in keys {
            let object = ManagedObject(ObjectInitialization(fault: entity, key: key))
            objects[key] = object
            map[key] = object
        }
        for key in keys where key % 3 == 0 {
            map[key] = nil
            objects[key] = nil
        }
        #expect(map.count == objects.count)
        for key in keys { #expect(map[key] === objects[key]) }
        #expect(map[999_999] == nil)
        #expect(Set(map.values.map(ObjectIdentifier.init)) == Set(objects.values.map(ObjectIdentifier.init)))
    }

    @Test func identityMapCopiesAreIndependentAndRegisteringKeepsTheFirstObjectOfAKey() {
        let entity = EntityModel.placeholder
        func object(_ key: Int64) -> ManagedObject { ManagedObject(ObjectInitialization(fault: entity, key: key)) }
        let empty = IdentityMap()
        #expect(empty[1] == nil && empty.count == 0 && empty.values.isEmpty)

        // One fetch's objects registered in one go, into an empty map: a key met twice keeps its
        // first object, which takes the second's place in the result.
        var map = IdentityMap()
        var fetched = (1...1_000).map { object(Int64($0)) }
        let first = fetched[9]
        let twice = object(10)
        fetched.append(twice)
        let duplicates = map.register(&fetched, at: fetched.indices)
        #expect(duplicates.count == 1 && duplicates[0] === twice && fetched.last === first)
        #expect(map.count == 1_000 && (1...1_000).allSatisfy { map[Int64($0)] === fetched[$0 - 1] })

        // A copy (as a loop over the context's maps makes) keeps what it held while the original changes.
        let copy = map
        let replacement = object(5)
        map[5] = replacement
        map[6] = nil
        map[2_000] = object(2_000)
        #expect(copy.count == 1_000 && copy[5] === fetched[4] && copy[6] === fetched[5] && copy[2_000] == nil)
        #expect(map.count == 1_000 && map[5] === replacement && map[6] == nil && map[2_000] != nil)

        // Dropping unreferenced objects lets go of those only the map holds, and leaves the objects
        // of a copy that shares its table alone.
        let seventh = fetched[6]
        fetched = []
        map = IdentityMap()
        var shared = copy
        #expect(shared.removeUnreferenced() == 0 && shared.count == 1_000)
        #expect(copy.count == 1_000 && copy[7] === seventh && copy[999] != nil && shared[999] === copy[999])
        var alone = IdentityMap()
        var held: [ManagedObject] = []
        for key in 1...100 {
            let made = object(Int64(key))
            if key % 10 == 0 { held.append(made) }
            alone[Int64(key)] = made
        }
        #expect(alone.removeUnreferenced() == 90)
        #expect(alone.count == 10 && held.allSatisfy { alone[$0.key] === $0 } && alone[1] == nil)
    }
}
