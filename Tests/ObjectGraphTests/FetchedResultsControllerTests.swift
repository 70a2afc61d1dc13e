import Foundation
import ObjectGraph
import QuireTestSupport
import Testing

/// The fetched-results controller: building and fetching, positions, sections, lazy objects, and
/// each kind of change with the positions its delegate is told.
@Suite struct FetchedResultsControllerTests {
    /// Saves articles titled `titles` with word counts 10, 20, ... and returns their IDs in order.
    @discardableResult
    private func saveArticles(_ titles: [String], in stack: TestStack, draft: Bool = true) throws -> [ManagedObjectID] {
        try stack.run { context in
            let articles = titles.enumerated().map { index, title in
                let article = Article(context: context)
                article.title = title
                article.wordCount = (index + 1) * 10
                article.isDraft = draft
                return article
            }
            try context.save()
            return articles.map(\.objectID)
        }
    }

    private func byWordCount(_ predicate: FetchPredicate<Article>? = nil) -> FetchRequest<Article> {
        FetchRequest<Article>(predicate: predicate, sortDescriptors: [.ascending(\.wordCount)])
    }

    @Test @MainActor func requestsItCannotServeAreTypedErrors() throws {
        let stack = try TestStack()
        let view = stack.container.viewContext
        #expect(throws: FetchedResultsError.missingSortDescriptors(entity: "Article")) {
            try FetchedResultsController(fetchRequest: FetchRequest<Article>(), context: view)
        }
        #expect(throws: FetchedResultsError.sectionKeyPathNotFirstSortKey(
            entity: "Article", sectionNameKeyPath: "title", firstSortKey: "wordCount")) {
            try FetchedResultsController(fetchRequest: byWordCount(), context: view, sectionNameKeyPath: "title")
        }
        #expect(throws: FetchedResultsError.sectionKeyPathNotBinaryOrder(entity: "Article", sectionNameKeyPath: "title")) {
            try FetchedResultsController(
                fetchRequest: FetchRequest<Article>(sortDescriptors: [.ascending(\.title, order: .caseInsensitive)]),
                context: view, sectionNameKeyPath: "title")
        }
        var limited = byWordCount()
        limited.fetchLimit = 10
        #expect(throws: FetchedResultsError.self) { try FetchedResultsController(fetchRequest: limited, context: view) }
        #expect(throws: FetchedResultsError.unsupportedContext(
            entity: "Article", reason: "a child context is not supported; use a context on the store, such as the view context")) {
            try FetchedResultsController(fetchRequest: byWordCount(), context: view.newChildContext())
        }
        let byTags = FetchRequest<Article>(sortDescriptors: [FetchSortDescriptor(key: "tags")])
        do {
            _ = try FetchedResultsController(fetchRequest: byTags, context: view)
            Issue.record("sorting by a to-many was accepted")
        } catch .invalidFetchRequest(let error) {
            #expect(error == .invalidKeyPath(entity: "Article", keyPath: "tags", reason: "sort by attributes, not relationships")
                || "\(error)".contains("tags"))
        }
    }

    @Test @MainActor func fetchesIDsInOrderWithPendingChangesAndLoadsNothing() throws {
        let stack = try TestStack()
        let ids = try saveArticles(["a", "b", "c", "d", "e"], in: stack)
        let view = stack.container.viewContext
        // Pending changes: one inserted, one moved to the front, one deleted.
        let inserted = Article(context: view)
        inserted.wordCount = 25
        try view.existingObject(with: ids[4], as: Article.self).wordCount = 1
        view.delete(try view.existingObject(with: ids[1]))
        view.processPendingChanges()
        let registeredBefore = view.registeredObjects.count

        let controller = try FetchedResultsController(fetchRequest: byWordCount(), context: view)
        #expect(controller.fetchedObjects == nil && controller.sections == nil && controller.count == 0)
        stack.statements.reset()
        try controller.performFetch()
        #expect(stack.statements.selects.count == 1, "one query: \(stack.statements.selects)")
        #expect(view.registeredObjects.count == registeredBefore, "no object was made")
        let expected = [ids[4], ids[0], inserted.objectID, ids[2], ids[3]]
        #expect(try #require(controller.fetchedObjects).objectIDs == expected)
        #expect(try view.fetchObjectIDs(byWordCount()) == expected)
        #expect(controller.count == 5)
        for (index, id) in expected.enumerated() {
            #expect(controller.objectID(at: index) == id)
            #expect(controller.index(of: id) == index)
            #expect(controller.indexPath(forObjectWith: id) == FetchedIndexPath(section: 0, item: index))
        }
        #expect(controller.index(of: ids[1]) == nil, "deleted")
        #expect(controller.object(at: 2) === inserted)
        #expect(controller.indexPath(for: inserted) == FetchedIndexPath(section: 0, item: 2))
        let sections = try #require(controller.sections)
        #expect(sections.count == 1 && sections[0].name == "" && sections[0].count == 5 && sections[0].objectIDs == expected)
    }

    @Test @MainActor func tiesKeepStoreOrderInADescendingSort() throws {
        let stack = try TestStack()
        try stack.run { context in
            for index in 0..<300 {
                let article = Article(context: context)
                article.wordCount = index % 7
                article.title = ["b", "a", "B"][index % 3]
            }
            try context.save()
        }
        let view = stack.container.viewContext
        for request in [
            FetchRequest<Article>(sortDescriptors: [.descending(\.wordCount)]),
            FetchRequest<Article>(sortDescriptors: [.descending(\.wordCount), .ascending(\.title)]),
            FetchRequest<Article>(sortDescriptors: [.descending(\.title, order: .caseInsensitive)]),
        ] {
            let controller = try FetchedResultsController(fetchRequest: request, context: view)
            try controller.performFetch()
            #expect(try #require(controller.fetchedObjects).objectIDs == (try view.fetchObjectIDs(request)))
        }
    }

    @Test @MainActor func nilSortKeysAreToldFromZeroAndEmptyValues() throws {
        let stack = try TestStack()
        try stack.run { context in
            for (index, rating) in [nil, 0.0, 1.5, nil, 0.0].enumerated() {
                let article = Article(context: context)
                article.title = "t\(index)"
                article.rating = rating
                article.subtitle = [nil, "", "x", "", nil][index]
                article.attachment = [nil, Data(), Data([1]), nil, Data([0])][index]
            }
            try context.save()
        }
        let view = stack.container.viewContext
        for (request, sections) in [
            (FetchRequest<Article>(sortDescriptors: [.ascending(\.rating), .ascending(\.title)]), "rating"),
            (FetchRequest<Article>(sortDescriptors: [.ascending(\.subtitle), .descending(\.title)]), "subtitle"),
            (FetchRequest<Article>(sortDescriptors: [.descending(\.attachment)]), nil),
        ] {
            let controller = try FetchedResultsController(fetchRequest: request, context: view, sectionNameKeyPath: sections)
            try controller.performFetch()
            #expect(try #require(controller.fetchedObjects).objectIDs == (try view.fetchObjectIDs(request)))
            guard let sections else { continue }
            let values = try #require(controller.sections).map(\.value)
            #expect(values == (sections == "rating" ? [.null, .double(0), .double(1.5)] : [.null, .string(""), .string("x")]))
        }
    }

    /// A fetch reads rows in chunks of a few thousand: values, nils and text keys on both sides of
    /// a chunk's end are ordered, sectioned and compared with as a fresh fetch does.
    @Test @MainActor func resultsSpanningSeveralReadChunksKeepEveryValue() throws {
        let stack = try TestStack()
        let rowCount = 10_000
        // Rows next to the 4,096-row chunk boundaries get nil ratings and subtitles.
        let nilRows: Set<Int> = [0, 4_095, 4_096, 8_191, 8_192, rowCount - 1]
        try stack.run { context in
            let rows: [[String: PrimitiveValue]] = (0..<rowCount).map { index in
                let isNil = nilRows.contains(index) || index % 7 == 0
                return [
                    "id": .uuid(UUID()), "title": .string("a\(index)"), "wordCount": .integer(Int64(index)),
                    "isDraft": .bool(true), "createdAt": .date(Date(timeIntervalSince1970: 0)),
                    "rating": isNil ? .null : .double(Double(index % 13) / 2),
                    "subtitle": isNil || index % 5 == 0 ? .null : .string("s\(index % 11)"),
                ]
            }
            _ = try context.execute(BatchInsertRequest<Article>(objects: rows))
        }
        let view = stack.container.viewContext
        for (request, sections) in [
            (FetchRequest<Article>(sortDescriptors: [.ascending(\.rating), .ascending(\.subtitle)]), "rating"),
            (FetchRequest<Article>(sortDescriptors: [.descending(\.subtitle), .ascending(\.wordCount)]), "subtitle"),
        ] {
            let controller = try FetchedResultsController(fetchRequest: request, context: view, sectionNameKeyPath: sections)
            try controller.performFetch()
            let expected = try view.fetchObjectIDs(request)
            #expect(controller.count == rowCount)
            #expect(try #require(controller.fetchedObjects).objectIDs == expected)
            // Each section holds the objects whose value it names, in the fetch's order.
            let objects = try view.fetch(request)
            let values = objects.map { sections == "rating" ? $0.rating.map(PrimitiveValue.double) ?? .null : $0.subtitle.map(PrimitiveValue.string) ?? .null }
            var runs: [(value: PrimitiveValue, count: Int)] = []
            for value in values {
                if runs.last?.value == value { runs[runs.count - 1].count += 1 } else { runs.append((value, 1)) }
            }
            let controllerSections = try #require(controller.sections)
            #expect(controllerSections.map(\.value) == runs.map(\.value))
            #expect(controllerSections.map(\.objectIDs.count) == runs.map(\.count))
            // A change is placed by comparing with the values read: it lands where a fresh fetch puts it.
            let moved = try view.existingObject(with: expected[4_096], as: Article.self)
            moved.rating = 3.25
            moved.subtitle = "s5"
            view.processPendingChanges()
            #expect(try #require(controller.fetchedObjects).objectIDs == (try view.fetchObjectIDs(request)))
            view.rollback()
        }
    }

    @Test @MainActor func objectsAreMadeAsFaultsThatLoadInBatches() throws {
        let stack = try TestStack()
        try stack.run { context in
            _ = try context.execute(BatchInsertRequest<Article>(objects: (0..<450).map {
                ["id": .uuid(UUID()), "title": .string("article \($0)"), "wordCount": .integer(Int64($0)),
                 "createdAt": .date(Date(timeIntervalSince1970: 0))]
            }))
        }
        let view = stack.container.viewContext
        let controller = try FetchedResultsController(fetchRequest: byWordCount(), context: view)
        try controller.performFetch()
        stack.statements.reset()
        let objects = try #require(controller.fetchedObjects)
        #expect(objects.count == 450)
        #expect(objects[130].isFault)
        #expect(objects[130].title == "article 130")
        #expect(stack.statements.selects.count == 1, "the batch of 100 around it loaded in one query")
        for index in 100..<200 { #expect(objects[index].wordCount == index) }
        #expect(stack.statements.selects.count == 1, "the rest of that batch was loaded with it")
        #expect(objects[99].isFault && objects[200].isFault, "other batches were not")

        // A prefetched range loads in one go when its first object is read.
        stack.statements.reset()
        controller.prefetch(300..<450)
        #expect(stack.statements.selects.isEmpty, "prefetching reads nothing by itself")
        #expect(controller.object(at: 449).title == "article 449")
        #expect((300..<450).allSatisfy { !controller.object(at: $0).isFault })
        #expect(stack.statements.selects.count == 2, "150 rows, 100 keys a statement: \(stack.statements.selects.count)")
        let titles = try #require(controller.sections)[0].objects.prefix(3).map(\.title)
        #expect(titles == ["article 0", "article 1", "article 2"])
    }

    @Test @MainActor func aBatchLoadsTheRelationshipsTheRequestPrefetches() throws {
        let stack = try TestStack()
        try stack.run { context in
            let tags = (0..<3).map { index -> Tag in
                let tag = Tag(context: context)
                tag.name = "tag \(index)"
                return tag
            }
            for index in 0..<250 {
                let article = Article(context: context)
                article.title = "article \(index)"
                article.wordCount = index
                article.tags = [tags[index % 3]]
            }
            try context.save()
        }
        var request = byWordCount()
        request.prefetch(\.tags)
        let controller = try FetchedResultsController(fetchRequest: request, context: stack.container.viewContext)
        try controller.performFetch()

        // A list's rows: a prefetched range, then each row's title and tags read as it is bound.
        stack.statements.reset()
        controller.prefetch(0..<150)
        func rowShows(_ index: Int) -> Bool {
            let article = controller.object(at: index)
            return article.title == "article \(index)" && article.tags.map(\.name) == ["tag \(index % 3)"]
        }
        #expect((0..<150).allSatisfy(rowShows))
        let rows = stack.statements.selects.count
        #expect(rows <= 4, "150 rows and their tags in a few queries, not one a row: \(rows)")
        // A batch the first read makes loads the tags with its rows too.
        stack.statements.reset()
        #expect((200..<250).allSatisfy(rowShows))
        #expect(stack.statements.selects.count <= 2, "\(stack.statements.selects.count)")
    }

    @Test @MainActor func eachKindOfChangeIsReportedWithItsPositions() throws {
        let stack = try TestStack()
        let ids = try saveArticles(["a", "b", "c", "d"], in: stack)
        let view = stack.container.viewContext
        let controller = try FetchedResultsController(fetchRequest: byWordCount(\.isDraft == true), context: view)
        let recorder = ChangeRecorder<Article>()
        controller.delegate = recorder
        try controller.performFetch()
        #expect(recorder.calls == ["reload"])
        recorder.start(from: controller)
        recorder.clearCalls()
        func position(_ index: Int) -> FetchedResultsPosition {
            FetchedResultsPosition(index: index, indexPath: FetchedIndexPath(section: 0, item: index))
        }

        // A change of a key neither sorted nor filtered on: an update. The save carries the row's
        // values and is the store's latest commit, so the row is placed without a query, and no
        // object is registered.
        try stack.run { context in
            try context.existingObject(with: ids[2], as: Article.self).body = "new body"
            let changes = try context.save()
            stack.statements.reset()
            return changes
        }.merge(into: view)
        #expect(recorder.batches == [[.update(ids[2], at: position(2))]])
        #expect(stack.statements.selects.isEmpty)
        #expect(view.registeredObjects.isEmpty)
        #expect(recorder.calls == ["willChange", "change", "didChange", "difference"])

        // A save merged after a later commit, which may have changed its rows again: its row is
        // read with the request's query.
        let earlier = try stack.run { context in
            try context.existingObject(with: ids[3], as: Article.self).wordCount = 45
            return try context.save()
        }
        let later = try stack.run { context in
            try context.existingObject(with: ids[3], as: Article.self).title = "d, renamed"
            return try context.save()
        }
        recorder.clearCalls()
        stack.statements.reset()
        earlier.merge(into: view)
        #expect(recorder.batches == [[.update(ids[3], at: position(3))]])
        #expect(stack.statements.selects.count == 1)
        stack.statements.reset()
        later.merge(into: view)
        #expect(stack.statements.selects.isEmpty)

        // A sort key: a move.
        recorder.clearCalls()
        try stack.run { context in
            try context.existingObject(with: ids[0], as: Article.self).wordCount = 35
            return try context.save()
        }.merge(into: view)
        #expect(recorder.batches == [[.move(ids[0], from: position(0), to: position(2))]])
        #expect(try #require(controller.fetchedObjects).objectIDs == [ids[1], ids[2], ids[0], ids[3]])

        // A sort key whose new value keeps the object between the same neighbours: an update.
        recorder.clearCalls()
        try stack.run { context in
            try context.existingObject(with: ids[0], as: Article.self).wordCount = 36
            return try context.save()
        }.merge(into: view)
        #expect(recorder.batches == [[.update(ids[0], at: position(2))]])

        // Stops matching: a delete; starts matching again: an insert.
        recorder.clearCalls()
        let article = try view.existingObject(with: ids[3], as: Article.self)
        article.isDraft = false
        view.processPendingChanges()
        #expect(recorder.batches == [[.delete(ids[3], at: position(3))]])
        article.isDraft = true
        article.wordCount = 5
        view.processPendingChanges()
        #expect(recorder.batches.last == [.insert(ids[3], at: position(0))])

        // A new object, saved: it arrives with its temporary ID and comes back under its permanent one.
        recorder.clearCalls()
        let new = Article(context: view)
        new.wordCount = 15
        view.processPendingChanges()
        let temporary = new.objectID
        #expect(recorder.batches == [[.insert(temporary, at: position(1))]])
        try view.save()
        #expect(recorder.batches.last == [.delete(temporary, at: position(1)), .insert(new.objectID, at: position(1))])
        #expect(controller.index(of: new.objectID) == 1 && controller.index(of: temporary) == nil)

        // A permanent ID obtained before the save: the same.
        recorder.clearCalls()
        let early = Article(context: view)
        early.wordCount = 16
        view.processPendingChanges()
        let earlyTemporary = early.objectID
        try view.obtainPermanentIDs(for: [early])
        view.processPendingChanges()
        #expect(recorder.batches.last == [.delete(earlyTemporary, at: position(2)), .insert(early.objectID, at: position(2))])
        try view.save()
        #expect(controller.index(of: early.objectID) == 2)
        view.delete(early)
        try view.save()

        // Deleted elsewhere and merged.
        recorder.clearCalls()
        try stack.run { context in
            context.delete(try context.existingObject(with: ids[1]))
            return try context.save()
        }.merge(into: view)
        #expect(recorder.batches == [[.delete(ids[1], at: position(2))]])
        #expect(recorder.problems.isEmpty)
        #expect(recorder.replayed == controller.fetchedObjects?.objectIDs)
        #expect(recorder.replayedFromDifferences == recorder.replayed)

        // An ID reported as inserted that is already in the results is an update.
        recorder.clearCalls()
        view.mergeChanges(fromContextDidSave: ChangeSet(inserted: [ids[2]]))
        #expect(recorder.batches == [[.update(ids[2], at: position(2))]])
        // A deleted ID that is not in the results is nothing.
        recorder.clearCalls()
        view.mergeChanges(fromContextDidSave: ChangeSet(deleted: [ids[1]]))
        #expect(recorder.calls.isEmpty)
    }

    @Test @MainActor func aBatchReportsDeletesAndMovesFromOldPositionsAndInsertsAtNewOnes() throws {
        let stack = try TestStack()
        let ids = try saveArticles(["a", "b", "c", "d", "e", "f"], in: stack)
        let view = stack.container.viewContext
        let controller = try FetchedResultsController(fetchRequest: byWordCount(), context: view)
        let recorder = ChangeRecorder<Article>()
        controller.delegate = recorder
        try controller.performFetch()
        recorder.clearCalls()
        var inserted: ManagedObjectID?
        try stack.run { context in
            context.delete(try context.existingObject(with: ids[1]))
            try context.existingObject(with: ids[5], as: Article.self).wordCount = 0
            try context.existingObject(with: ids[2], as: Article.self).title = "renamed"
            let article = Article(context: context)
            article.wordCount = 45
            let changes = try context.save()
            inserted = article.objectID
            return changes
        }.merge(into: view)
        let expected = [ids[5], ids[0], ids[2], ids[3], try #require(inserted), ids[4]]
        #expect(try #require(controller.fetchedObjects).objectIDs == expected)
        let batch = try #require(recorder.batches.first)
        #expect(Set(batch) == [
            .delete(ids[1], at: FetchedResultsPosition(index: 1, indexPath: FetchedIndexPath(section: 0, item: 1))),
            .move(ids[5], from: FetchedResultsPosition(index: 5, indexPath: FetchedIndexPath(section: 0, item: 5)),
                  to: FetchedResultsPosition(index: 0, indexPath: FetchedIndexPath(section: 0, item: 0))),
            .update(ids[2], at: FetchedResultsPosition(index: 2, indexPath: FetchedIndexPath(section: 0, item: 2))),
            .insert(expected[4], at: FetchedResultsPosition(index: 4, indexPath: FetchedIndexPath(section: 0, item: 4))),
        ])
        #expect(recorder.replayed == expected && recorder.problems.isEmpty)
        let difference = try #require(recorder.differences.first)
        #expect(Set(difference.changed) == [ids[5], ids[2]])
        #expect(difference.objects.inferringMoves().count == difference.objects.count)
    }

    @Test @MainActor func sectionsAppearAndDisappearWithTheirLastObject() throws {
        let stack = try TestStack()
        let ids = try stack.run { context -> [ManagedObjectID] in
            let articles = [(1, "a"), (1, "b"), (2, "c"), (4, "d")].map { priority, title in
                let article = Article(context: context)
                article.priority = Int16(priority)
                article.title = title
                return article
            }
            try context.save()
            return articles.map(\.objectID)
        }
        let view = stack.container.viewContext
        let request = FetchRequest<Article>(sortDescriptors: [.ascending(\.priority), .ascending(\.title)])
        let controller = try FetchedResultsController(fetchRequest: request, context: view, sectionNameKeyPath: "priority")
        let recorder = ChangeRecorder<Article>()
        controller.delegate = recorder
        try controller.performFetch()
        recorder.clearCalls()
        let sections = try #require(controller.sections)
        #expect(sections.map(\.name) == ["1", "2", "4"])
        #expect(sections.map(\.value) == [.integer(1), .integer(2), .integer(4)])
        #expect(sections.map(\.objectIDs) == [[ids[0], ids[1]], [ids[2]], [ids[3]]])
        #expect(controller.indexPath(forObjectWith: ids[1]) == FetchedIndexPath(section: 0, item: 1))
        #expect(controller.object(at: FetchedIndexPath(section: 2, item: 0)).title == "d")

        // "c" moves from section 2 (emptied) into a new section 3.
        try view.existingObject(with: ids[2], as: Article.self).priority = 3
        view.processPendingChanges()
        #expect(Set(try #require(recorder.sectionBatches.last)) == [.delete(name: "2", at: 1), .insert(name: "3", at: 1)])
        #expect(recorder.batches.last == [.move(
            ids[2], from: FetchedResultsPosition(index: 2, indexPath: FetchedIndexPath(section: 1, item: 0)),
            to: FetchedResultsPosition(index: 2, indexPath: FetchedIndexPath(section: 1, item: 0)))],
            "a change of section is a move even at the same position")
        #expect(try #require(controller.sections).map(\.name) == ["1", "3", "4"])
        #expect(recorder.replayedSections.map(\.name) == ["1", "3", "4"])
        #expect(recorder.problems.isEmpty)

        // Joining an existing section adds no section.
        try view.existingObject(with: ids[3], as: Article.self).priority = 1
        view.processPendingChanges()
        #expect(recorder.sectionBatches.last == [.delete(name: "4", at: 2)])
        #expect(try #require(controller.sections).map(\.objectIDs) == [[ids[0], ids[1], ids[3]], [ids[2]]])
        #expect(recorder.replayedSections.map(\.objects) == [[ids[0], ids[1], ids[3]], [ids[2]]])
        #expect(try #require(recorder.differences.last).sections.count == 1)
    }

    @Test @MainActor func resetAndRefreshAllObjectsFetchAgain() throws {
        let stack = try TestStack()
        try saveArticles(["a", "b"], in: stack)
        let view = stack.container.viewContext
        let controller = try FetchedResultsController(fetchRequest: byWordCount(), context: view)
        let recorder = ChangeRecorder<Article>()
        controller.delegate = recorder
        try controller.performFetch()
        let inserted = Article(context: view)
        inserted.wordCount = 1
        view.processPendingChanges()
        #expect(controller.count == 3)
        recorder.clearCalls()
        view.reset()
        #expect(recorder.calls == ["reload"])
        #expect(controller.count == 2, "the unsaved insert went with the reset")
        try saveArticles(["c"], in: stack)
        view.refreshAllObjects()
        #expect(recorder.calls == ["reload", "reload"])
        #expect(try #require(controller.fetchedObjects).objectIDs == (try view.fetchObjectIDs(byWordCount())))
    }

    @Test @MainActor func aNaNIsNilInMemoryAsInItsRow() throws {
        // SQLite stores a NaN as NULL: the row of an article saved with a NaN rating has none, and
        // the values a merged save carries, like an unsaved object's, must be read so too.
        let stack = try TestStack()
        let view = stack.container.viewContext
        let request = FetchRequest<Article>(predicate: .isNil(\.rating), sortDescriptors: [.ascending(\.wordCount)])
        let controller = try FetchedResultsController(fetchRequest: request, context: view)
        try controller.performFetch()
        #expect(controller.count == 0)
        try stack.run { context in
            let article = Article(context: context)
            article.title = "Not a number"
            article.rating = .nan
            let changes = try context.save()
            stack.statements.reset()
            return changes
        }.merge(into: view)
        #expect(stack.statements.selects.isEmpty)
        #expect(controller.count == 1)
        #expect(try #require(controller.fetchedObjects).objectIDs == (try view.fetchObjectIDs(request)))

        let unsaved = Article(context: view)
        unsaved.title = "Not a number either"
        unsaved.rating = .nan
        view.processPendingChanges()
        #expect(controller.count == 2)
        #expect(try #require(controller.fetchedObjects).objectIDs == (try view.fetchObjectIDs(request)))
        #expect(try view.fetch(request).count == 2, "a fetch merging unsaved changes finds it too")
    }

    @Test @MainActor func aFailedReadIsReportedAndLeavesTheResultsAsTheyWere() throws {
        let stack = try TestStack()
        let ids = try saveArticles(["a", "b"], in: stack)
        let view = stack.container.viewContext
        let controller = try FetchedResultsController(fetchRequest: byWordCount(), context: view)
        let recorder = ChangeRecorder<Article>()
        controller.delegate = recorder
        try controller.performFetch()
        recorder.clearCalls()
        // Another program changes a row (known by its ID only, so it is read), and the table
        // disappears under the store: reading the changed object fails.
        try stack.run { context in
            try context.existingObject(with: ids[0], as: Article.self).wordCount = 99
            _ = try context.save()
        }
        try ChangeSet(updated: [ids[0]: ["wordCount"]]).merge(into: view, breakingStoreFirst: stack)
        #expect(recorder.errors.count == 1)
        #expect(recorder.errors.first is StoreError)
        #expect(recorder.calls == ["error"])
        #expect(try #require(controller.fetchedObjects).objectIDs == ids)
    }

    @Test @MainActor func changesOfOtherEntitiesAndBeforeTheFetchAreIgnored() throws {
        let stack = try TestStack()
        try saveArticles(["a"], in: stack)
        let view = stack.container.viewContext
        let controller = try FetchedResultsController(fetchRequest: byWordCount(), context: view)
        let recorder = ChangeRecorder<Article>()
        controller.delegate = recorder
        let early = Article(context: view)
        early.wordCount = 3
        view.processPendingChanges()
        #expect(recorder.calls.isEmpty, "not fetched yet")
        try controller.performFetch()
        recorder.clearCalls()
        let folder = Folder(context: view)
        folder.name = "Drafts"
        view.processPendingChanges()
        try view.save()
        #expect(recorder.batches.flatMap { $0 }.allSatisfy { $0.objectID.entityName == "Article" })
        #expect(controller.count == 2)
    }
}

extension ChangeSet {
    /// Merges the changes into `context` as an automatic merge would.
    @MainActor
    func merge(into context: ManagedObjectContext) {
        context.mergeChanges(fromContextDidSave: self)
    }

    /// Merges after dropping the table the changed objects live in, so that reading them fails.
    @MainActor
    func merge(into context: ManagedObjectContext, breakingStoreFirst stack: TestStack) throws {
        try stack.breakArticleTable()
        context.mergeChanges(fromContextDidSave: self)
    }
}

extension TestStack {
    /// Renames the Article table through a connection of its own, so that the store's next read of
    /// articles fails as a damaged file would make it fail.
    func breakArticleTable() throws {
        try renameStoreTable("Article", to: "ArticleGone", in: directory.file())
    }
}
