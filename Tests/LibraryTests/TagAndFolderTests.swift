import Foundation
import ObjectGraph
import SyncProtocol
import Testing
@testable import Library

/// Tags, status, favorites and folders across the library: each change is one save with one
/// outbox operation per article it changes, the sidebar's counts follow, and search narrows by
/// `tag:` and `status:`.
@Suite struct TagAndFolderTests {
    /// Three synced articles (no outbox operation waits), tagged and filed.
    private func library() async throws -> (TemporaryLibrary, [UUID]) {
        let store = try TemporaryLibrary()
        try await store.library.createFolder(named: "Essays")
        var ids: [UUID] = []
        for (title, tags, folder) in [("One", ["swfit", "gtk"], "Essays"), ("Two", ["swfit"], nil), ("Three", [], "Essays")] as [(String, [String], String?)] {
            let article = try await store.library.createArticle(ArticleContent(title: title, body: "\(title) body\n", folder: folder, tags: tags))
            try store.markSynced(article.id, at: 1, content: article.content)
            ids.append(article.id)
        }
        return (store, ids)
    }

    @Test func renamingATagRewritesEveryArticleThatCarriesItInOneSave() async throws {
        let (store, ids) = try await library()
        try await store.library.renameTag("swfit", to: "swift")
        #expect(try await store.library.article(ids[0]).tags == ["gtk", "swift"])
        #expect(try await store.library.article(ids[1]).tags == ["swift"])
        let outbox = try store.outbox()
        #expect(outbox.count == 2)
        #expect(Set(outbox.map(\.articleID)) == [ids[0], ids[1]])
        #expect(outbox.allSatisfy { $0.change == .put && $0.payload?.tags?.contains("swift") == true && $0.state == .pending })
        #expect(try await store.library.tags().map(\.name) == ["gtk", "swift"])
        await #expect(throws: TagError.tagNotFound("swfit")) { try await store.library.renameTag("swfit", to: "x") }
    }

    /// An article's tags are in one order wherever they show and are sent: case and accents
    /// folded, then as written.
    @Test func anArticlesTagsAreSortedByFoldedNameThenByName() async throws {
        let store = try TemporaryLibrary()
        let tags = ["zoo", "École", "ecole", "apple", "Apple", "  banana", "Banana"]
        let article = try await store.library.createArticle(ArticleContent(title: "Tagged", body: "", tags: tags))
        let sorted = ["Apple", "apple", "  banana", "Banana", "ecole", "École", "zoo"]
        #expect(article.tags == sorted)
        #expect(try store.outbox(of: article.id).first?.payload?.tags == sorted)
    }

    @Test func renamingOntoAnExistingTagMergesThem() async throws {
        let (store, ids) = try await library()
        try await store.library.renameTag("gtk", to: "swfit")
        #expect(try await store.library.article(ids[0]).tags == ["swfit"])
        #expect(try await store.library.tags() == [TagSummary(name: "swfit", articleCount: 2)])
        #expect(try store.outbox().map(\.articleID) == [ids[0]])
    }

    @Test func deletingATagUntagsItsArticlesAndReturnsThemForUndo() async throws {
        let (store, ids) = try await library()
        let carried = try await store.library.deleteTag("swfit")
        #expect(Set(carried) == [ids[0], ids[1]])
        #expect(try await store.library.article(ids[0]).tags == ["gtk"])
        #expect(try await store.library.article(ids[1]).tags == [])
        #expect(try store.outbox().count == 2)
        #expect(try await store.library.tagNames() == ["gtk"])
        // Undo: the same articles tagged again.
        try await store.library.tagArticles(carried, with: "swfit")
        #expect(try await store.library.tags().first { $0.name == "swfit" }?.articleCount == 2)
    }

    @Test func deletingAFolderLeavesItsArticlesInNoFolder() async throws {
        let (store, ids) = try await library()
        let held = try await store.library.deleteFolder(named: "Essays")
        #expect(Set(held) == [ids[0], ids[2]])
        #expect(try await store.library.article(ids[0]).folder == nil)
        #expect(try await store.library.folders().isEmpty)
        let outbox = try store.outbox()
        #expect(outbox.count == 2 && outbox.allSatisfy { $0.payload?.folder == nil })
    }

    @Test func tagStatusAndFavoriteAreEachOneOutboxOperation() async throws {
        let (store, ids) = try await library()
        try await store.library.tagArticles([ids[2]], with: "new")
        try await store.library.setStatus(.ready, for: [ids[2]])
        try await store.library.setFavorite(true, for: [ids[2]])
        let outbox = try store.outbox(of: ids[2])
        // The first unsent operation takes the later changes (the outbox's coalescing rule).
        #expect(outbox.count == 1)
        #expect(outbox.first?.payload?.tags == ["new"] && outbox.first?.payload?.status == .ready && outbox.first?.payload?.favorite == true)
        let article = try await store.library.article(ids[2])
        #expect(article.syncState == .modified && article.localRevision == 4, "created at 1, then three changes")
    }

    @Test func countsEveryPlaceOfTheSidebar() async throws {
        let (store, ids) = try await library()
        try await store.library.setStatus(.ready, for: [ids[0], ids[1]])
        try await store.library.setFavorite(true, for: [ids[1]])
        try await store.library.moveToTrash([ids[1]])
        let counts = try await store.library.counts()
        #expect(counts.all == 2 && counts.trash == 1 && counts.favorites == 0 && counts.unfiled == 0)
        #expect(counts.statuses == [.draft: 1, .ready: 1, .published: 0])
        #expect(counts.folders == [FolderSummary(name: "Essays", articleCount: 2)])
        #expect(counts.tags == [TagSummary(name: "gtk", articleCount: 1), TagSummary(name: "swfit", articleCount: 1)])
    }

    @Test func searchNarrowsByTagAndStatus() async throws {
        let (store, ids) = try await library()
        try await store.library.setStatus(.ready, for: [ids[1]])
        try await store.library.tagArticles([ids[2]], with: "long reads")
        func found(_ text: String, status: ArticleStatus? = nil) async throws -> Set<UUID> {
            Set(try await store.library.articles(matching: ArticleQuery(searchText: text, status: status)).map(\.id))
        }
        #expect(try await found("tag:swfit") == [ids[0], ids[1]])
        #expect(try await found("tag:swfit status:ready") == [ids[1]])
        #expect(try await found("TAG:swfit one") == [ids[0]])
        #expect(try await found("tag:\"long reads\"") == [ids[2]])
        #expect(try await found("status:published").isEmpty)
        #expect(try await found("status:bogus").isEmpty)
        #expect(try await found("", status: .ready) == [ids[1]])
        #expect(try await found("status:draft status:ready").count == 3)
        #expect(ArticleQuery(searchText: "tag:x").isSearching)
    }

    @Test func searchTermsTakeTheFieldApart() {
        let terms = SearchTerms("gtk tag:swift  status:Ready tag:\"two words\" lis status:nope tag:")
        #expect(terms.tags == ["swift", "two words"])
        #expect(terms.statuses == [.ready])
        #expect(terms.hasUnknownStatus)
        #expect(terms.text == "gtk lis")
        #expect(!SearchTerms("plain words").hasFilters)
    }

    @Test func anIDPrefixNamesOneArticleOrListsTheCandidates() async throws {
        let store = try TemporaryLibrary()
        let first = UUID(uuidString: "abcd0000-0000-4000-8000-000000000001")!
        let second = UUID(uuidString: "abcd0000-0000-4000-8000-000000000002")!
        try await store.library.createArticle(ArticleContent(title: "A", body: ""), id: first)
        try await store.library.createArticle(ArticleContent(title: "B", body: ""), id: second)
        #expect(try await store.library.articleID(matching: "ABCD0000-0000-4000-8000-000000000002") == second)
        #expect(try await store.library.articleID(matching: "abcd0000-0000-4000-8000-000000000001") == first)
        await #expect(throws: LibraryError.ambiguousArticleID("abcd", matches: [first, second])) {
            try await store.library.articleID(matching: "abcd")
        }
        let message = LibraryError.ambiguousArticleID("abcd", matches: [first, second]).description
        #expect(message.contains(first.uuidString.lowercased()) && message.contains(second.uuidString.lowercased()))
        await #expect(throws: LibraryError.noArticleMatching("ffff")) { try await store.library.articleID(matching: "ffff") }
    }
}
