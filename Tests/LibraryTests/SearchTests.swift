import CSQLite
import Foundation
import ObjectGraph
import QuireTestSupport
import Testing
@testable import Library

/// Finding articles: the list's filters and orders, and full-text search through the FTS5 index.
@Suite struct SearchTests {
    private func library() async throws -> TemporaryLibrary {
        let store = try TemporaryLibrary()
        let library = store.library
        let contents = [
            ArticleContent(title: "Swift on Linux", body: "Building packages with SwiftPM on Debian.", folder: "Tech", tags: ["swift"]),
            ArticleContent(title: "Linux desktop notes", body: "GTK, libadwaita and Linux. More Linux. Linux!", folder: "Tech"),
            ArticleContent(title: "Café society", body: "Essays written in a café in Lyon.", folder: "Essays", isFavorite: true),
            ArticleContent(title: "Shopping", body: "Eggs, milk, bread.", tags: ["home"]),
            ArticleContent(title: "apple harvest", body: "The orchard in autumn; not about computers.", status: .published),
        ]
        for content in contents { _ = try await library.createArticle(content) }
        return store
    }

    private func titles(_ library: Library, _ query: ArticleQuery) async throws -> [String] {
        try await library.articles(matching: query).map(\.title)
    }

    @Test func searchFindsWordsAndPrefixesAsYouType() async throws {
        let store = try await library()
        let library = store.library
        #expect(Set(try await titles(library, ArticleQuery(searchText: "linux"))) == ["Swift on Linux", "Linux desktop notes"])
        #expect(try await titles(library, ArticleQuery(searchText: "lin deb")) == ["Swift on Linux"])
        #expect(try await titles(library, ArticleQuery(searchText: "CAFE lyon")) == ["Café society"])
        #expect(try await titles(library, ArticleQuery(searchText: "s")).count == 3, "one letter is already a prefix search")
        #expect(try await titles(library, ArticleQuery(searchText: "computers")) == ["apple harvest"])
        #expect(try await titles(library, ArticleQuery(searchText: "missing")) == [])
    }

    @Test func searchRanksBestMatchesFirst() async throws {
        let store = try await library()
        let ranked = try await titles(store.library, ArticleQuery(searchText: "linux", order: .relevance))
        #expect(ranked == ["Linux desktop notes", "Swift on Linux"])
        let byTitle = try await titles(store.library, ArticleQuery(searchText: "linux", order: .title))
        #expect(byTitle == ["Linux desktop notes", "Swift on Linux"])
    }

    @Test func hostileSearchTextIsOnlyText() async throws {
        let store = try await library()
        for text in ["\"", "linux\"", "NEAR(linux", "title:linux", "linux OR eggs", "*", "(", "-linux", "^linux", "'; DROP TABLE Article; --"] {
            let found = try await titles(store.library, ArticleQuery(searchText: text))
            #expect(found.count <= 2, "\(text) found \(found)")
        }
        #expect(try await titles(store.library, ArticleQuery(searchText: "   ")).count == 5, "blank text does not search")
        #expect(try await titles(store.library, ArticleQuery(searchText: "?!")) == [], "text without words finds nothing")
    }

    @Test func filtersAndOrders() async throws {
        let store = try await library()
        let library = store.library
        #expect(try await titles(library, ArticleQuery(filter: .folder("Tech"), order: .title)) == ["Linux desktop notes", "Swift on Linux"])
        #expect(try await titles(library, ArticleQuery(filter: .favorites)) == ["Café society"])
        #expect(try await titles(library, ArticleQuery(filter: .tag("home"))) == ["Shopping"])
        #expect(try await titles(library, ArticleQuery(filter: .unfiled, order: .title)) == ["apple harvest", "Shopping"])
        #expect(try await titles(library, ArticleQuery(order: .title))
            == ["apple harvest", "Café society", "Linux desktop notes", "Shopping", "Swift on Linux"])
        #expect(try await titles(library, ArticleQuery(order: .created)).first == "apple harvest")
        #expect(try await titles(library, ArticleQuery(order: .title, limit: 2)) == ["apple harvest", "Café society"])

        let shopping = try #require(try await library.articles(matching: ArticleQuery(searchText: "eggs")).first)
        try await library.editArticle(shopping.id, body: "Eggs, milk, bread, and Linux stickers.")
        #expect(try await titles(library, ArticleQuery(order: .updated)).first == "Shopping")
        #expect(try await titles(library, ArticleQuery(searchText: "stickers")) == ["Shopping"], "the index follows edits")
        try await library.moveToTrash([shopping.id])
        #expect(try await titles(library, ArticleQuery(searchText: "stickers")) == [])
        #expect(try await titles(library, ArticleQuery(filter: .trash, searchText: "stickers")) == ["Shopping"])
        #expect(try await library.count(matching: ArticleQuery()) == 4)
    }

    @Test func summariesCarryWhatTheListShows() async throws {
        let store = try await library()
        let summary = try #require(try await store.library.articles(matching: ArticleQuery(searchText: "café")).first)
        #expect(summary.title == "Café society")
        #expect(summary.excerpt == "Essays written in a café in Lyon.")
        #expect(summary.wordCount == 7)
        #expect(summary.folder == "Essays")
        #expect(summary.isFavorite)
        #expect(summary.status == .draft)
        #expect(summary.syncState == .localOnly)
        #expect(summary.trashed == nil)
        #expect(try await store.library.articleID(matching: String(summary.id.uuidString.prefix(8))) == summary.id)
        await #expect(throws: LibraryError.self) { try await store.library.articleID(matching: "zz") }
    }

    @Test func listQueriesSortThroughTheStoresIndexes() async throws {
        let store = try await library()
        let queries = [
            ArticleQuery(), ArticleQuery(order: .created), ArticleQuery(order: .title), ArticleQuery(filter: .favorites),
            ArticleQuery(filter: .folder("Tech")), ArticleQuery(filter: .trash),
        ]
        let statements = try store.inspect { context -> [String] in
            try queries.map { query in
                let log = StatementLog()
                context.persistentStore.setStatementTrace { log.record($0) }
                defer { context.persistentStore.setStatementTrace(nil) }
                var request = query.fetchRequest
                request.fetchBatchSize = 50
                _ = try context.fetchObjectIDs(request)
                return try #require(log.statements.last { $0.hasPrefix("SELECT") })
            }
        }
        // A list of 100,000 articles must not be sorted whole for its first screen: each query reads
        // its order from an index, tie-break included, in either direction. The title order (title
        // ascending, then newest first) mixes directions, which an index read one way cannot give:
        // SQLite sorts only each run of equal titles there.
        for (query, sql) in zip(queries, statements) {
            let plan = try QueryPlan.explain(sql, in: store.library.url)
            let directions = Set(query.fetchRequest.sortDescriptors.map(\.ascending))
            #expect(!plan.contains(directions.count == 1 ? "TEMP B-TREE" : "TEMP B-TREE FOR ORDER BY"), "\(query): \(plan)")
            #expect(plan.contains("USING INDEX") || plan.contains("USING COVERING INDEX"), "\(query): \(plan)")
        }
    }
}

/// Records the statements a store runs.
private final class StatementLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    func record(_ sql: String) { lock.withLock { recorded.append(sql) } }
    var statements: [String] { lock.withLock { recorded } }
}
