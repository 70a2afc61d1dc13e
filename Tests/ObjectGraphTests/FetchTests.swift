import Foundation
import ObjectGraph
import Testing

/// Result types, limits, pagination and the merging of unsaved changes into fetches.
@Suite struct FetchTests {
    private let byWords: [FetchSortDescriptor<Article>] = [.ascending(\.wordCount)]

    @Test func limitAndOffset() throws {
        let stack = try TestStack.savedLibrary()
        try stack.run { context in
            var request = FetchRequest<Article>(sortDescriptors: byWords)
            let all = try context.fetch(request).map(\.wordCount)
            request.fetchLimit = 3
            request.fetchOffset = 2
            #expect(try context.fetch(request).map(\.wordCount) == Array(all[2..<5]))
            request.fetchLimit = 0
            #expect(try context.fetch(request).map(\.wordCount) == Array(all[2...]))
            #expect(try context.count(for: request) == all.count - 2)
        }
    }

    @Test func aFetchKeepsTheObjectsTheContextHoldsAndRegistersTheOthers() throws {
        let stack = try TestStack.savedLibrary()
        try stack.run { context in
            // A context that holds some of the objects (one with an unsaved change), then fetches all.
            var firstTwo = FetchRequest<Article>(sortDescriptors: byWords)
            firstTwo.fetchLimit = 2
            let held = Array(try context.fetch(firstTwo))
            held[0].title = "changed, not saved"
            let all = Array(try context.fetch(FetchRequest<Article>(sortDescriptors: byWords)))
            #expect(all.count > 2 && all[0] === held[0] && all[1] === held[1])
            #expect(all[0].title == "changed, not saved")
            // The rest were registered: a second fetch gives the same objects, and a lookup by ID too.
            let again = Array(try context.fetch(FetchRequest<Article>(sortDescriptors: byWords)))
            #expect(again.count == all.count && zip(again, all).allSatisfy { $0 === $1 })
            #expect(try all.allSatisfy { try context.existingObject(with: $0.objectID, as: Article.self) === $0 })
            #expect(context.registeredObjects.filter { $0 is Article }.count == all.count)
        }
        // A new context (no object of the entity yet) registers every fetched object the same way.
        try stack.run { context in
            let all = Array(try context.fetch(FetchRequest<Article>(sortDescriptors: byWords)))
            #expect(try all.allSatisfy { try context.existingObject(with: $0.objectID, as: Article.self) === $0 })
            #expect(zip(try context.fetch(FetchRequest<Article>(sortDescriptors: byWords)), all).allSatisfy { $0 === $1 })
        }
    }

    @Test func aFetchOfManyRowsGivesEachObjectItsOwnValues() throws {
        // More rows than one shared value buffer holds (ValueRows.rowsPerBuffer), with zeros,
        // empty texts and NULLs next to other values, read by a whole fetch and by fault groups.
        let count = 150
        let stack = try TestStack()
        func expectStored(_ article: Article, _ index: Int, _ note: Comment? = nil) throws {
            #expect(article.title == "title \(index) \(String(repeating: "é", count: index % 20))", note)
            #expect(article.subtitle == (index % 3 == 0 ? nil : index % 3 == 1 ? "" : "sub \(index)"), note)
            #expect(article.wordCount == index, note)
            #expect(article.rating == (index % 4 == 0 ? nil : index % 4 == 1 ? 0 : Double(index) / 2), note)
            #expect(article.isDraft == (index % 2 == 0), note)
            #expect(article.createdAt == Date(timeIntervalSince1970: Double(index % 5)), note)
            #expect(article.folder?.name == (index % 6 == 0 ? "folder" : nil), note)
            // A zero read from a column is a value, not a missing one.
            #expect(try article.value(forKey: "createdAt") as? Date == Date(timeIntervalSince1970: Double(index % 5)), note)
            #expect(try article.value(forKey: "isDraft") as? Bool == (index % 2 == 0), note)
            #expect(try article.value(forKey: "wordCount") as? Int64 == Int64(index), note)
        }
        try stack.run { context in
            let folder = Folder(context: context)
            folder.name = "folder"
            for index in 0..<count {
                let article = Article(context: context)
                article.title = "title \(index) \(String(repeating: "é", count: index % 20))"
                article.subtitle = index % 3 == 0 ? nil : index % 3 == 1 ? "" : "sub \(index)"
                article.wordCount = index
                article.rating = index % 4 == 0 ? nil : index % 4 == 1 ? 0 : Double(index) / 2
                article.isDraft = index % 2 == 0
                article.createdAt = Date(timeIntervalSince1970: Double(index % 5))
                if index % 6 == 0 { article.folder = folder }
            }
            try context.save()
        }
        try stack.run { context in
            var all = Array(try context.fetch(FetchRequest<Article>(sortDescriptors: byWords)))
            #expect(all.count == count)
            for (index, article) in all.enumerated() { try expectStored(article, index, "fetched row \(index)") }

            // A change to one object leaves the others that were read with it as they were, and a
            // refreshing fetch does not take it back.
            all[70].title = "changed"
            all[70].rating = nil
            for index in [64, 69, 71, 127] { try expectStored(all[index], index, "neighbour \(index) of a changed object") }
            do {
                var refreshing = FetchRequest<Article>(sortDescriptors: byWords)
                refreshing.shouldRefreshRefetchedObjects = true
                let again = try context.fetch(refreshing)
                #expect(again[70] === all[70] && again[70].title == "changed" && again[70].rating == nil)
                for index in [0, 69, 71, 149] { try expectStored(again[index], index, "refreshed row \(index)") }
            }

            // One object kept from the fetch keeps its values when the context lets the others go.
            let kept = all[100]
            all = []
            context.releaseUnreferencedObjects()
            #expect(context.registeredObjects.filter { $0 is Article }.count == 2)
            try expectStored(kept, 100, "kept object")
        }
        try stack.run { context in
            var request = FetchRequest<Article>(sortDescriptors: byWords)
            request.returnsObjectsAsFaults = true
            let faults = try context.fetch(request)
            #expect(faults.count == count)
            for (index, article) in faults.enumerated() { try expectStored(article, index, "fault \(index)") }
        }
    }

    @Test func includesPendingChanges() throws {
        let stack = try TestStack.savedLibrary()
        try stack.run { context in
            let request = FetchRequest<Article>(predicate: \.wordCount >= 300, sortDescriptors: byWords)
            #expect(try context.fetch(request).map(\.title) == ["apple pie", "Swift on Linux", "Linux Desktop"])

            let all = try context.fetch(FetchRequest<Article>())
            let byTitle = Dictionary(uniqueKeysWithValues: all.map { ($0.title, $0) })
            byTitle["cafe noir"]!.wordCount = 1000        // now matches, sorts between two saved ones
            byTitle["apple pie"]!.wordCount = 5           // no longer matches
            context.delete(byTitle["Linux Desktop"]!)     // deleted: left out
            let draft = Article(context: context)         // inserted and matching
            draft.title = "New draft"
            draft.wordCount = 400

            #expect(try context.fetch(request).map(\.title) == ["New draft", "Swift on Linux", "cafe noir"])
            #expect(try context.count(for: request) == 3)
            let ids = try context.fetchObjectIDs(request)
            #expect(ids.map(\.isTemporaryID) == [true, false, false])
            #expect(ids[0] == draft.objectID)

            var limited = request
            limited.fetchLimit = 2
            limited.fetchOffset = 1
            #expect(try context.fetch(limited).map(\.title) == ["Swift on Linux", "cafe noir"])
            #expect(try context.count(for: limited) == 2)

            var storeOnly = request
            storeOnly.includesPendingChanges = false
            #expect(try context.fetch(storeOnly).map(\.title) == ["apple pie", "Swift on Linux", "Linux Desktop"])

            var batched = request
            batched.fetchBatchSize = 2
            #expect(try context.fetch(batched).map(\.title) == ["New draft", "Swift on Linux", "cafe noir"])
        }
    }

    @Test func objectIDsAndCountWithoutObjects() throws {
        let stack = try TestStack.savedLibrary()
        try stack.run { context in
            let request = FetchRequest<Article>(predicate: \.isDraft == true, sortDescriptors: byWords)
            stack.statements.reset()
            let ids = try context.fetchObjectIDs(request)
            #expect(ids.count == 3)
            #expect(context.registeredObjects.isEmpty)
            #expect(try context.count(for: request) == 3)
            #expect(stack.statements.selects.count == 2)
            let titles = try ids.map { try context.existingObject(with: $0, as: Article.self).title }
            #expect(titles == ["Ünïcode Ümlaut", "cafe noir", "Swift on Linux"])
        }
    }

    @Test func dictionaries() throws {
        let stack = try TestStack.savedLibrary()
        try stack.run { context in
            let request = FetchRequest<Article>(predicate: \.folder?.name == "Tech", sortDescriptors: byWords)
            let rows = try context.fetchDictionaries(request, propertiesToFetch: ["title", "rating", "folder.name", "folder"])
            #expect(rows.count == 3)
            #expect(rows.map { $0["title"] as? String } == ["100% done", "Swift on Linux", "Linux Desktop"])
            #expect(rows.map { $0["rating"] as? Double } == [2.5, 5.0, 3.0])
            #expect(rows.allSatisfy { $0["folder.name"] as? String == "Tech" })
            let folderID = try #require(rows[0]["folder"] as? ManagedObjectID)
            #expect((try context.existingObject(with: folderID, as: Folder.self)).name == "Tech")
            #expect(throws: ObjectGraphError.self) {
                _ = try context.fetchDictionaries(request, propertiesToFetch: ["tags"])
            }
        }
    }

    @Test func keysetPagesWalkTheWholeOrder() throws {
        let stack = try TestStack()
        try stack.run { context in
            for index in 0..<95 {
                let article = Article(context: context)
                article.title = "Article \(index)"
                article.wordCount = index % 7          // many ties, broken by key
                article.priority = Int16(index % 3)
            }
            try context.save()
        }
        for order in [[FetchSortDescriptor<Article>.ascending(\.wordCount)],
                      [.descending(\.wordCount), .ascending(\.priority)],
                      [.ascending(\.title, order: .caseInsensitive)]] {
            try stack.run { context in
                let full = try context.fetch(FetchRequest(sortDescriptors: order)).map(\.title)
                var page = FetchRequest<Article>(sortDescriptors: order, fetchLimit: 10)
                var walked: [String] = []
                var results = try context.fetch(page)
                while let last = results.last {
                    walked += results.map(\.title)
                    page = FetchRequest(sortDescriptors: order, fetchLimit: 10).after(try context.keysetCursor(for: last, in: page))
                    results = try context.fetch(page)
                }
                #expect(walked == full)
            }
        }
    }

    @Test func keysetNeedsSavedObjectsAndRequiredKeys() throws {
        let stack = try TestStack.savedLibrary()
        try stack.run { context in
            let unsaved = Article(context: context)
            let byRating = FetchRequest<Article>(sortDescriptors: [.ascending(\.rating)])
            #expect(throws: ObjectGraphError.self) { _ = try context.keysetCursor(for: unsaved, in: byRating) }
            let rated = try #require(try context.fetch(FetchRequest<Article>(predicate: \.rating == 4.5)).first)
            let cursor = try context.keysetCursor(for: rated, in: byRating)
            #expect(throws: ObjectGraphError.self) { _ = try context.fetch(byRating.after(cursor)) }
        }
    }

    @Test func batchedResultsMatchPlainResults() throws {
        let stack = try TestStack.savedLibrary()
        try stack.run { context in
            let plain = try context.fetch(FetchRequest<Article>(sortDescriptors: byWords)).map(\.title)
            for batchSize in [1, 3, 8, 50] {
                var request = FetchRequest<Article>(sortDescriptors: byWords)
                request.fetchBatchSize = batchSize
                #expect(try context.fetch(request).map(\.title) == plain)
            }
            var faults = FetchRequest<Article>(sortDescriptors: byWords)
            faults.returnsObjectsAsFaults = true
            #expect(try context.fetch(faults).map(\.title) == plain)
        }
    }

    @Test func refetchKeepsLoadedValuesUnlessAskedToRefresh() throws {
        let stack = try TestStack.savedLibrary()
        let reader = stack.container.newBackgroundContext()
        let article = try reader.performAndWait {
            try #require(try reader.fetch(FetchRequest<Article>(predicate: \.title == "apple pie")).first).objectID
        }
        try stack.run { writer in
            try writer.existingObject(with: article, as: Article.self).wordCount = 301
            try writer.save()
        }
        try reader.performAndWait { () throws in
            var request = FetchRequest<Article>(predicate: \.title == "apple pie")
            #expect(try reader.fetch(request).first?.wordCount == 300)
            request.shouldRefreshRefetchedObjects = true
            #expect(try reader.fetch(request).first?.wordCount == 301)
        }
    }

    @Test func requestForAnotherClassIsRefused() throws {
        let stack = try TestStack.savedLibrary()
        try stack.run { context in
            #expect(throws: ObjectGraphError.self) { _ = try context.fetch(FetchRequest<Article>(entityName: "Folder")) }
            #expect(throws: ObjectGraphError.self) { _ = try context.fetch(FetchRequest<ManagedObject>(entityName: "Nothing")) }
            let untyped = try context.fetch(FetchRequest<ManagedObject>(entityName: "Folder"))
            #expect(untyped.count == 3)
            #expect(untyped.allSatisfy { $0 is Folder })
        }
    }
}
