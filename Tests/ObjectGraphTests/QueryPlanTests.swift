import CSQLite
import Foundation
import ObjectGraph
import QuireTestSupport
import Testing

/// A sort that an index serves is read from the index in either direction, tie-break included:
/// no fetch path makes SQLite sort the rows again in a temporary B-tree (at a million rows that
/// sort costs more than the reading).
@Suite struct QueryPlanTests {
    final class Entry: ManagedObject {
        @Attribute("group") var group: Int
        @Attribute("date") var date: Date
        @Attribute("title") var title: String
    }

    static let schema = Schema(version: 1, entities: [
        EntityDescription(
            "Entry", class: Entry.self,
            attributes: [
                AttributeDescription("group", .integer64, default: 0),
                AttributeDescription("date", .date, indexed: true),
                AttributeDescription("title", .string, default: ""),
            ],
            indexes: [["group", "date"]]),
    ])

    /// Every way to fetch in `request`'s order: objects, IDs, batches, a page, the page after a
    /// cursor, and a fetched-results controller.
    @MainActor
    private func statements(for request: FetchRequest<Entry>, in stack: TestStack) throws -> [String] {
        let context = stack.container.viewContext
        stack.statements.reset()
        _ = try context.fetch(request)
        _ = try context.fetchObjectIDs(request)
        var batched = request
        batched.fetchBatchSize = 20
        _ = try context.fetch(batched).first?.title
        var page = request
        page.fetchLimit = 20
        let first = try context.fetch(page)
        let cursor = try context.keysetCursor(for: try #require(first.last), in: page)
        _ = try context.fetch(page.after(cursor))
        let controller = try FetchedResultsController(fetchRequest: request, context: context)
        try controller.performFetch()
        return stack.statements.selects.filter { $0.contains("ORDER BY") }
    }

    /// A store of `count` saved entries, each with the group, date (seconds after 1970) and title
    /// its index gives.
    private func stackOfSavedEntries(
        _ count: Int, group: (Int) -> Int = { _ in 0 }, seconds: (Int) -> Int, title: (Int) -> String = { "\($0)" }
    ) throws -> TestStack {
        let stack = try TestStack(schema: Self.schema)
        try stack.run { context in
            for index in 0..<count {
                let entry = Entry(context: context)
                entry.group = group(index)
                entry.date = Date(timeIntervalSince1970: Double(seconds(index)))
                entry.title = title(index)
            }
            try context.save()
        }
        return stack
    }

    @Test @MainActor func indexedSortsInEitherDirectionNeedNoTemporaryBTree() throws {
        // Dates repeat, so every order has ties for the primary key to break.
        let stack = try stackOfSavedEntries(500, group: { $0 % 3 }, seconds: { $0 % 40 }, title: { "entry \($0)" })
        let requests: [FetchRequest<Entry>] = [
            FetchRequest(sortDescriptors: [.ascending(\.date)]),
            FetchRequest(sortDescriptors: [.descending(\.date)]),
            FetchRequest(predicate: \.group == 1, sortDescriptors: [.ascending(\.date)]),
            FetchRequest(predicate: \.group == 1, sortDescriptors: [.descending(\.date)]),
            FetchRequest(sortDescriptors: [.descending(\.group), .descending(\.date)]),
            // The leading key held equal by the predicate: the index serves the last key's direction.
            FetchRequest(predicate: \.group == 2, sortDescriptors: [.ascending(\.group), .descending(\.date)]),
        ]
        for request in requests {
            let statements = try statements(for: request, in: stack)
            #expect(statements.count >= 5, "\(request.sortDescriptors): \(statements)")
            for sql in statements {
                let plan = try QueryPlan.explain(sql, in: stack.directory.file())
                #expect(!plan.contains("TEMP B-TREE"), "\(request.sortDescriptors): \(sql) → \(plan)")
                #expect(plan.contains("USING INDEX") || plan.contains("USING COVERING INDEX"), "\(sql) → \(plan)")
            }
        }
    }

    @Test @MainActor func aKeysetPageInOneDirectionComparesItsKeysAsOneRowValue() throws {
        // Keys all ascending or all descending: one row-value comparison with the primary key
        // last, in the ties' direction; mixed directions keep the expanded comparison.
        let stack = try stackOfSavedEntries(30, group: { $0 % 2 }, seconds: { $0 % 5 })
        let context = stack.container.viewContext
        let orders: [([FetchSortDescriptor<Entry>], String)] = [
            ([.ascending(\.date)], #"((t0."date", t0._pk) > (?, ?))"#),
            ([.descending(\.group), .descending(\.date)], #"((t0."group", t0."date", t0._pk) < (?, ?, ?))"#),
            ([.ascending(\.group), .descending(\.date)], #"t0._pk < ?"#),
        ]
        for (order, comparison) in orders {
            let page = FetchRequest<Entry>(sortDescriptors: order, fetchLimit: 4)
            let first = try context.fetch(page)
            stack.statements.reset()
            let next = try context.fetch(page.after(try context.keysetCursor(for: try #require(first.last), in: page)))
            let sql = try #require(stack.statements.selects.first)
            #expect(sql.contains(comparison), "\(sql)")
            let mixed = order.contains { $0.ascending } && order.contains { !$0.ascending }
            #expect(sql.contains(" OR ") == mixed, "\(sql)")
            let all = try context.fetch(FetchRequest<Entry>(sortDescriptors: order))
            #expect(next.map(\.objectID) == all[4..<8].map(\.objectID))
        }
    }

    @Test @MainActor func descendingTiesComeInDescendingStoreOrderEverywhere() throws {
        let stack = try stackOfSavedEntries(60, seconds: { $0 % 4 })
        let context = stack.container.viewContext
        let request = FetchRequest<Entry>(sortDescriptors: [.descending(\.date)])
        let fetched = try context.fetch(request).map(\.title)
        // Newest date first; within a date, the row inserted last first.
        let expected = (0..<60).sorted { ($0 % 4, $0) > ($1 % 4, $1) }.map(String.init)
        #expect(fetched == expected)

        // Paging through with cursors gives the same order, without gaps or repeats.
        var page = request
        page.fetchLimit = 7
        var paged: [String] = []
        var next = page
        while true {
            let objects = try context.fetch(next)
            paged += objects.map(\.title)
            guard let last = objects.last else { break }
            next = page.after(try context.keysetCursor(for: last, in: page))
        }
        #expect(paged == expected)

        // An unsaved object ties after every saved one in store order: first when ties descend.
        let unsaved = Entry(context: context)
        unsaved.date = Date(timeIntervalSince1970: 3)
        unsaved.title = "unsaved"
        let withUnsaved = try context.fetch(request).map(\.title)
        #expect(withUnsaved == ["unsaved"] + expected)
        let controller = try FetchedResultsController(fetchRequest: request, context: context)
        try controller.performFetch()
        #expect(try #require(controller.fetchedObjects).objectIDs == (try context.fetchObjectIDs(request)))
        try context.save()
        #expect(try context.fetch(request).map(\.title) == withUnsaved)
    }
}
