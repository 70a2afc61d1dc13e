import Foundation
import ObjectGraph
import Testing

/// A fetch request keeps the SQL it was translated to, and the pages after cursors of one request
/// share one translation with each cursor's values in their places. These tests fetch kept
/// translations and check the rows against fetches of new requests; in debug builds every kept
/// translation is also checked against a new one (`CompiledQueries`).
@Suite struct CompiledQueryTests {
    /// An entity with a required decimal, whose keyset compares a cast column.
    final class Amount: ManagedObject {
        @Attribute("value") var value: Decimal
        @Attribute("label") var label: String

        static let schema = Schema(version: 1, entities: [
            EntityDescription("Amount", class: Amount.self, attributes: [
                AttributeDescription("value", .decimal, default: .decimal(0)),
                AttributeDescription("label", .string, default: ""),
            ]),
        ])
    }

    /// 95 articles with many ties in word count and priority, and titles in mixed case.
    private func library() throws -> TestStack {
        let stack = try TestStack()
        try stack.run { context in
            for index in 0..<95 {
                let article = Article(context: context)
                article.title = index.isMultiple(of: 2) ? "article \(index)" : "Article \(index)"
                article.wordCount = index % 7
                article.priority = Int16(index % 3)
                article.isDraft = index % 5 != 0
            }
            try context.save()
        }
        return stack
    }

    /// Every page after a cursor of `base`, walked with `base.after(_:)` from the first page.
    private func walk<T: ManagedObject>(_ base: FetchRequest<T>, in context: ManagedObjectContext) throws -> [T] {
        var walked: [T] = []
        var page = base
        for _ in 0..<100 {
            let results = Array(try context.fetch(page))
            // IDs and counts of the same page use the same kept translation, with its own selection.
            #expect(try context.fetchObjectIDs(page) == results.map(\.objectID))
            #expect(try context.count(for: page) == results.count)
            guard let last = results.last else { return walked }
            walked += results
            page = base.after(try context.keysetCursor(for: last, in: base))
        }
        Issue.record("the pages did not end: a page after a cursor repeats an earlier one")
        return walked
    }

    @Test func thePagesOfOneRequestWalkItsWholeOrder() throws {
        let stack = try library()
        let orders: [[FetchSortDescriptor<Article>]] = [
            [.ascending(\.wordCount)],                          // one row-value comparison
            [.descending(\.wordCount), .descending(\.priority)],
            [.descending(\.wordCount), .ascending(\.priority)],  // directions mixed: the expansion
            [.ascending(\.title, order: .caseInsensitive)],      // a collation: the expansion
        ]
        for order in orders {
            for predicate in [nil, \Article.isDraft == true] as [FetchPredicate<Article>?] {
                try stack.run { context in
                    let full = try context.fetch(FetchRequest(predicate: predicate, sortDescriptors: order)).map(\.title)
                    #expect(full.count > 30)
                    let base = FetchRequest<Article>(predicate: predicate, sortDescriptors: order, fetchLimit: 10)
                    #expect(try walk(base, in: context).map(\.title) == full)
                }
            }
        }
    }

    @Test func pagesByADecimalCompareItsNumericValue() throws {
        let stack = try TestStack(schema: Amount.schema)
        let values: [Decimal] = [Decimal(string: "10.5")!, 2, Decimal(string: "-3.25")!, 100, 2, Decimal(string: "0.001")!, 9]
        try stack.run { context in
            for (index, value) in (values + values).enumerated() {
                let amount = Amount(context: context)
                amount.value = value
                amount.label = "amount \(index)"
            }
            try context.save()
        }
        try stack.run { context in
            let order: [FetchSortDescriptor<Amount>] = [.ascending(\.value)]
            let full = try context.fetch(FetchRequest(sortDescriptors: order)).map(\.label)
            let walked = try walk(FetchRequest<Amount>(sortDescriptors: order, fetchLimit: 3), in: context)
            #expect(walked.map(\.label) == full)
            #expect(walked.map(\.value) == (values + values).sorted())
        }
    }

    @Test func aRequestChangedAfterAFetchIsTranslatedAgain() throws {
        let stack = try library()
        try stack.run { context in
            var request = FetchRequest<Article>(predicate: \.wordCount == 3, sortDescriptors: [.ascending(\.title)])
            let fresh = { (changed: FetchRequest<Article>) in
                // A request made anew with the same settings.
                var made = FetchRequest<Article>(predicate: changed.predicate, sortDescriptors: changed.sortDescriptors)
                made.fetchLimit = changed.fetchLimit
                made.fetchOffset = changed.fetchOffset
                return try context.fetch(made).map(\.title)
            }
            var seen: [[String]] = []
            func check() throws {
                let titles = try context.fetch(request).map(\.title)
                #expect(titles == (try fresh(request)))
                #expect(try context.count(for: request) == titles.count)
                seen.append(titles)
            }
            try check()
            request.predicate = \.wordCount == 4
            try check()
            request.sortDescriptors = [.descending(\.title)]
            try check()
            request.fetchLimit = 5
            try check()
            request.fetchOffset = 3
            try check()
            // Every change gave other rows, so none of them was answered by an earlier translation.
            #expect(Set(seen).count == seen.count)
        }
    }

    @Test func twoSpellingsOfOneTextAreTwoRequests() throws {
        // "café" composed and decomposed: equal as Swift strings, different bytes to SQLite.
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed)
        let stack = try TestStack()
        try stack.run { context in
            for (title, words) in [(composed, 1), (decomposed, 2)] {
                let article = Article(context: context)
                article.title = title
                article.wordCount = words
            }
            try context.save()
        }
        try stack.run { context in
            var request = FetchRequest<Article>(predicate: \.title == composed)
            let composedWords = try context.fetch(request).map(\.wordCount)
            request.predicate = \.title == decomposed
            let decomposedWords = try context.fetch(request).map(\.wordCount)
            #expect(composedWords == [1] && decomposedWords == [2])
        }
    }

    @Test func aPageOfAPageKeepsBothCursors() throws {
        let stack = try library()
        try stack.run { context in
            let order: [FetchSortDescriptor<Article>] = [.ascending(\.wordCount)]
            let all = try context.fetch(FetchRequest(sortDescriptors: order)).map(\.title)
            let base = FetchRequest<Article>(sortDescriptors: order, fetchLimit: 10)
            let first = Array(try context.fetch(base))
            // The second page's own pages: rows after the first page and after another cursor.
            let second = base.after(try context.keysetCursor(for: first[9], in: base))
            let secondRows = Array(try context.fetch(second))
            #expect(secondRows.map(\.title) == Array(all[10..<20]))
            // The same condition in a request of its own, whose pages share one translation of
            // two keyset conditions: only the second one's values may change from page to page.
            var narrowed = FetchRequest<Article>(sortDescriptors: order, fetchLimit: 10)
            narrowed.predicate = second.predicate
            for cursorIndex in [12, 3, 25, 5, 40] {
                let cursorObject = try #require(try context.fetch(FetchRequest(sortDescriptors: order)).first { $0.title == all[cursorIndex] })
                // Rows after both cursors: after the later one.
                let start = max(cursorIndex, 9) + 1
                let expected = Array(all[start..<(start + 10)])
                #expect(try context.fetch(second.after(try context.keysetCursor(for: cursorObject, in: second))).map(\.title) == expected)
                #expect(try context.fetch(narrowed.after(try context.keysetCursor(for: cursorObject, in: narrowed))).map(\.title) == expected)
            }
        }
    }

    @Test func aCursorOfAnotherOrderIsRefusedAfterAPageWasKept() throws {
        let stack = try library()
        try stack.run { context in
            let base = FetchRequest<Article>(sortDescriptors: [.ascending(\.wordCount)], fetchLimit: 10)
            let twoKeys = FetchRequest<Article>(sortDescriptors: [.ascending(\.wordCount), .ascending(\.priority)])
            let first = Array(try context.fetch(base))
            _ = try context.fetch(base.after(try context.keysetCursor(for: first[9], in: base)))
            let foreign = try context.keysetCursor(for: first[9], in: twoKeys)
            #expect(throws: ObjectGraphError.self) { _ = try context.fetch(base.after(foreign)) }
            #expect(throws: ObjectGraphError.self) { _ = try context.count(for: base.after(foreign)) }
        }
    }
}
