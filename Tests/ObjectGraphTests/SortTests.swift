import Foundation
import ObjectGraph
import Testing

/// Sort orders, computed by SQL for saved rows and in memory for unsaved ones, against the same
/// expectation.
@Suite struct SortTests {
    typealias Row = LibraryFixture.Row

    /// Fetches titles in `order`, from saved rows and from unsaved objects.
    private func titles(_ order: [FetchSortDescriptor<Article>], predicate: FetchPredicate<Article>? = nil) throws -> (saved: [String], unsaved: [String]) {
        let saved = try TestStack()
        try saved.run { context in
            LibraryFixture.insert(into: context)
            try context.save()
        }
        let savedTitles = try saved.run { context in
            try context.fetch(FetchRequest(predicate: predicate, sortDescriptors: order)).map(\.title)
        }
        let unsaved = try TestStack()
        let unsavedTitles = try unsaved.run { context in
            LibraryFixture.insert(into: context)
            return try context.fetch(FetchRequest(predicate: predicate, sortDescriptors: order)).map(\.title)
        }
        return (savedTitles, unsavedTitles)
    }

    /// The fixture's titles sorted by `areInIncreasingOrder`, ties in insertion order, reversed when
    /// the sort's last key descends (store order follows the last key's direction).
    private func expected(tiesAscend: Bool = true, _ areInIncreasingOrder: (Row, Row) -> Bool) -> [String] {
        LibraryFixture.rows.enumerated().sorted { lhs, rhs in
            if areInIncreasingOrder(lhs.element, rhs.element) { return true }
            if areInIncreasingOrder(rhs.element, lhs.element) { return false }
            return tiesAscend ? lhs.offset < rhs.offset : lhs.offset > rhs.offset
        }.map(\.element.title)
    }

    @Test func ascendingAndDescending() throws {
        let ascending = try titles([.ascending(\.wordCount)])
        #expect(ascending.saved == expected { $0.wordCount < $1.wordCount })
        #expect(ascending.unsaved == ascending.saved)
        let descending = try titles([.descending(\.createdAt)])
        #expect(descending.saved == expected(tiesAscend: false) { $0.createdAt > $1.createdAt })
        #expect(descending.unsaved == descending.saved)
    }

    @Test func severalKeysWithTiesBrokenInStoreOrder() throws {
        let result = try titles([.descending(\.priority), .ascending(\.isDraft)])
        #expect(result.saved == expected { $0.priority != $1.priority ? $0.priority > $1.priority : !$0.isDraft && $1.isDraft })
        #expect(result.unsaved == result.saved)
        let ties = try titles([.ascending(\.priority)])
        #expect(ties.saved == expected { $0.priority < $1.priority })
        #expect(ties.unsaved == ties.saved)
        let descendingTies = try titles([.descending(\.priority)])
        #expect(descendingTies.saved == expected(tiesAscend: false) { $0.priority > $1.priority })
        #expect(descendingTies.unsaved == descendingTies.saved)
    }

    @Test func nilSortsFirstAscendingAndLastDescending() throws {
        let ascending = try titles([.ascending(\.rating)])
        #expect(ascending.saved == expected { ($0.rating ?? -.infinity) < ($1.rating ?? -.infinity) })
        #expect(ascending.unsaved == ascending.saved)
        let descending = try titles([.descending(\.rating)])
        #expect(descending.saved == expected(tiesAscend: false) { ($0.rating ?? -.infinity) > ($1.rating ?? -.infinity) })
        #expect(descending.unsaved == descending.saved)
    }

    @Test func stringOrders() throws {
        let binary = try titles([.ascending(\.title)])
        #expect(binary.saved == expected { Array($0.title.utf8).lexicographicallyPrecedes(Array($1.title.utf8)) })
        #expect(binary.unsaved == binary.saved)

        let caseInsensitive = try titles([.ascending(\.title, order: .caseInsensitive)])
        #expect(caseInsensitive.saved == expected {
            Array($0.title.lowercased().utf8).lexicographicallyPrecedes(Array($1.title.lowercased().utf8))
        })
        #expect(caseInsensitive.unsaved == caseInsensitive.saved)

        let localized = try titles([.ascending(\.title, order: .localized)])
        #expect(localized.saved == expected { $0.title.localizedCompare($1.title) == .orderedAscending })
        #expect(localized.unsaved == localized.saved)
    }

    @Test func throughToOneRelationship() throws {
        let result = try titles([.ascending(\.folder?.name), .descending(\.wordCount)])
        #expect(result.saved == expected { lhs, rhs in
            // Articles without a folder (nil) first, then by folder name, then by word count descending.
            switch (lhs.folder, rhs.folder) {
            case (nil, nil): return lhs.wordCount > rhs.wordCount
            case (nil, _): return true
            case (_, nil): return false
            case (let left?, let right?): return left != right ? left < right : lhs.wordCount > rhs.wordCount
            }
        })
        #expect(result.unsaved == result.saved)
    }

    @Test func decimalsByValue() throws {
        let result = try titles([.ascending(\.price)], predicate: .isNotNil(\.price))
        #expect(result.saved == expected { ($0.price ?? -1) < ($1.price ?? -1) }.filter { title in
            LibraryFixture.rows.first { $0.title == title }?.price != nil
        })
        #expect(result.unsaved == result.saved)
    }
}
