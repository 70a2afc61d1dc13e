import Foundation
import Testing

@testable import ObjectGraph

/// A controller's whole fetch with its rows read on another thread (`performFetchInBackground`):
/// the results it leaves are exactly a fetch's at the moment they arrive, whatever changed while
/// the rows were read, and a newer fetch gives it up.
@Suite struct FetchedResultsBackgroundFetchTests {
    private static let request = FetchRequest<Article>(predicate: .beginsWith(\.title, "Draft"), sortDescriptors: [.ascending(\.wordCount)])

    @Test @MainActor func changesThatReachTheContextAfterTheRowsWereReadAreInTheResults() throws {
        let stack = try TestStack()
        let ids = try stack.saveTenDrafts()
        let view = stack.container.viewContext
        let controller = try FetchedResultsController(fetchRequest: Self.request, context: view)
        let recorder = ChangeRecorder<Article>()
        controller.delegate = recorder
        try controller.performFetch(firstRows: 3)

        var completions: [String] = []
        let fetch = try controller.startBackgroundFetch { error in completions.append(error.map { "\($0)" } ?? "done") }
        #expect(controller.isFetchingInBackground)
        // The rows as the store holds them now; the changes below come after, as when a save
        // commits while the rows are read.
        let rows = fetch.readRows()

        let (added, changes) = try stack.run { context in
            let article = Article(context: context)
            article.title = "Draft new"
            article.wordCount = 55
            try context.existingObject(with: ids[9], as: Article.self).wordCount = 1
            context.delete(try context.existingObject(with: ids[4], as: Article.self))
            try context.existingObject(with: ids[6], as: Article.self).title = "Final 7"
            let changes = try context.save()
            return (article.objectID, changes)
        }
        changes.merge(into: view)
        // Unsaved edits of the context itself count too.
        try view.existingObject(with: ids[0], as: Article.self).wordCount = 1_000
        let unsaved = Article(context: view)
        unsaved.title = "Draft unsaved"
        unsaved.wordCount = 35
        view.processPendingChanges()

        controller.finishBackgroundFetch(fetch, rows: rows.outcome)
        #expect(completions == ["done"])
        #expect(!controller.isFetchingInBackground && !controller.hasMoreRows)
        #expect(recorder.calls.last == "reload")
        let fetched = try view.fetch(Self.request).map(\.objectID)
        #expect(fetched == [ids[9], ids[1], ids[2], unsaved.objectID, ids[3], added, ids[5], ids[7], ids[8], ids[0]])
        #expect(try #require(controller.fetchedObjects).objectIDs == fetched)

        // Afterwards the results follow changes as ever.
        try view.existingObject(with: ids[1], as: Article.self).wordCount = 2_000
        view.processPendingChanges()
        #expect(try #require(controller.fetchedObjects).objectIDs == (try view.fetch(Self.request).map(\.objectID)))
        #expect(recorder.problems.isEmpty)
    }

    @Test @MainActor func aNewerFetchGivesUpTheOneInTheBackground() async throws {
        let stack = try TestStack()
        let ids = try stack.saveTenDrafts()
        let view = stack.container.viewContext
        let controller = try FetchedResultsController(fetchRequest: Self.request, context: view)
        try controller.performFetch(firstRows: 2)

        var givenUp: [String] = []
        try controller.performFetchInBackground { error in givenUp.append(error.map { "\($0)" } ?? "done") }
        try controller.performFetch(firstRows: 2)
        #expect(!controller.isFetchingInBackground)

        // A save while the next one reads: before or after its read began, it is in the results.
        let error: (any Error)? = try await withCheckedThrowingContinuation { continuation in
            do {
                try controller.performFetchInBackground { continuation.resume(returning: $0) }
                try stack.run { context in
                    try context.existingObject(with: ids[9], as: Article.self).wordCount = 0
                    return try context.save()
                }.merge(into: view)
            } catch {
                continuation.resume(throwing: error)
            }
        }
        #expect(error == nil)
        // The first fetch's rows came back before the second's (one reader) and were dropped.
        #expect(givenUp.isEmpty)
        #expect(!controller.hasMoreRows)
        #expect(try #require(controller.fetchedObjects).objectIDs == [ids[9]] + ids.prefix(9))
    }

    @Test @MainActor func anInMemoryStoreIsReadUnderItsLockWithSectionsAsAFetchMakesThem() async throws {
        let container = try PersistentContainer(schema: TestModel.schema, store: .inMemory)
        let view = container.viewContext
        for number in 1...30 {
            let article = Article(context: view)
            article.title = "Draft \(number)"
            article.wordCount = number % 4
        }
        try view.save()
        let request = FetchRequest<Article>(sortDescriptors: [.ascending(\.wordCount), .ascending(\.title)])
        let controller = try FetchedResultsController(fetchRequest: request, context: view, sectionNameKeyPath: "wordCount")
        let error: (any Error)? = await withCheckedContinuation { continuation in
            do {
                try controller.performFetchInBackground { continuation.resume(returning: $0) }
            } catch {
                continuation.resume(returning: error)
            }
        }
        #expect(error == nil)
        let direct = try FetchedResultsController(fetchRequest: request, context: view, sectionNameKeyPath: "wordCount")
        try direct.performFetch()
        let sections = try #require(controller.sections).map { ($0.name, $0.objectIDs) }
        let expected = try #require(direct.sections).map { ($0.name, $0.objectIDs) }
        #expect(sections.map(\.0) == ["0", "1", "2", "3"])
        #expect(sections.map(\.0) == expected.map(\.0) && sections.map(\.1) == expected.map(\.1))
    }
}
