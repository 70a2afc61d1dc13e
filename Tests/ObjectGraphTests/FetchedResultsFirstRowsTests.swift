import Foundation
import ObjectGraph
import Testing

/// A controller's first rows (`performFetch(firstRows:)`): the whole fetch's first rows, from one
/// `LIMIT`ed query, following changes until the whole fetch replaces them.
@Suite struct FetchedResultsFirstRowsTests {
    @Test @MainActor func firstRowsAreTheWholeFetchsFirstRowsAndFollowChanges() throws {
        let stack = try TestStack()
        let ids = try stack.saveTenDrafts()
        let view = stack.container.viewContext
        let controller = try FetchedResultsController(
            fetchRequest: FetchRequest<Article>(sortDescriptors: [.ascending(\.wordCount)]), context: view)
        let recorder = ChangeRecorder<Article>()
        controller.delegate = recorder

        stack.statements.reset()
        try controller.performFetch(firstRows: 3)
        #expect(stack.statements.selects.count == 1 && stack.statements.selects.first?.hasSuffix("LIMIT 3") == true)
        #expect(recorder.calls == ["reload"])
        #expect(try #require(controller.fetchedObjects).objectIDs == Array(ids.prefix(3)))
        #expect(controller.hasMoreRows)

        // A change is followed among the first rows, as in whole results.
        try stack.run { context in
            try context.existingObject(with: ids[9], as: Article.self).wordCount = 5
            return try context.save()
        }.merge(into: view)
        #expect(try #require(controller.fetchedObjects).objectIDs == [ids[9]] + ids.prefix(3))

        try controller.performFetch()
        #expect(!controller.hasMoreRows)
        #expect(try #require(controller.fetchedObjects).objectIDs == [ids[9]] + ids.prefix(9))
        #expect(recorder.calls.filter { $0 == "reload" }.count == 2)

        // Fewer matches than rows asked for: the results are whole.
        try controller.performFetch(firstRows: 20)
        #expect(!controller.hasMoreRows && controller.count == 10)
        // Exactly as many: more may match, which only the whole fetch can tell.
        try controller.performFetch(firstRows: 10)
        #expect(controller.hasMoreRows && controller.count == 10)

        // An object with unsaved changes is placed from memory, where it sorts now (after rows the
        // limit left out, here), and its row read from the store still counts against the limit.
        try view.existingObject(with: ids[0], as: Article.self).wordCount = 1_000
        view.processPendingChanges()
        try controller.performFetch(firstRows: 2)
        #expect(controller.hasMoreRows)
        #expect(try #require(controller.fetchedObjects).objectIDs == [ids[9], ids[0]])
    }
}
