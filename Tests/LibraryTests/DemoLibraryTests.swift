import Foundation
import Platform
import SyncProtocol
import Testing
@testable import Library

/// The demo library: varied, realistic, the same for the same seed, and saved as ordinary articles.
@Suite struct DemoLibraryTests {
    @Test func aSeedAlwaysGivesTheSameArticles() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(DemoLibrary.article(5, seed: 3, now: now) == DemoLibrary.article(5, seed: 3, now: now))
        #expect(DemoLibrary.article(5, seed: 3, now: now).id != DemoLibrary.article(6, seed: 3, now: now).id)
        #expect(DemoLibrary.article(5, seed: 3, now: now).id != DemoLibrary.article(5, seed: 4, now: now).id)
    }

    /// A seed's articles are the ones it always gave: libraries made by different builds
    /// (benchmarks, screenshots, a bug report's steps) hold the same text. The digest was taken
    /// from the first 300 articles of seed 1 as Quire made them on 2026-12-03.
    @Test func aSeedsArticlesNeverChange() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var text = ""
        for index in 0..<300 {
            let article = DemoLibrary.article(index, seed: 1, now: now)
            text += "\(article.id) \(article.title) \(article.folder ?? "-") \(article.tags) \(article.status) \(article.isFavorite) "
                + "\(article.created.timeIntervalSince1970) \(article.updated.timeIntervalSince1970) \(article.trashed?.timeIntervalSince1970 ?? 0)\n"
                + "\(article.body)\n"
        }
        #expect(SHA256.hex(text.utf8) == "ce894b8eb89003ae607eb5d227bb877abf432d3b6cae85fc6a818d79a42a46db")
    }

    @Test func articlesAreVaried() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let articles = (0..<300).map { DemoLibrary.article($0, seed: 1, now: now) }
        #expect(Set(articles.map(\.title)).count > 150)
        #expect(Set(articles.compactMap(\.folder)) == Set(DemoLibrary.folders))
        #expect(articles.contains { $0.folder == nil })
        #expect(Set(articles.flatMap(\.tags)) == Set(DemoLibrary.tags))
        #expect(Set(articles.map(\.status)) == Set(ArticleStatus.allCases))
        #expect(articles.contains { $0.isFavorite })
        #expect(articles.contains { $0.trashed != nil })
        #expect(articles.allSatisfy { $0.created <= $0.updated && $0.updated <= now.addingTimeInterval(3600 * 24) })
        #expect(articles.allSatisfy { $0.created >= now.addingTimeInterval(-731 * 24 * 3600) })
        let bodies = articles.map(\.body).joined()
        for construct in ["\n## ", "\n- ", "\n1. ", "- [x] ", "\n> ", "```", "| Week |", "](https://", "**"] {
            #expect(bodies.contains(construct), "no \(construct)")
        }
        let sizes = articles.map(\.body.utf8.count)
        #expect(sizes.min()! < 600 && sizes.max()! > 1500)
    }

    @Test func demoArticlesAreOrdinaryArticlesAddedOnce() async throws {
        let store = try TemporaryLibrary()
        #expect(try await store.library.addDemoArticles(count: 30, batchSize: 7) == 30)
        #expect(try await store.library.addDemoArticles(count: 35) == 5, "the same seed never duplicates")
        let all = try await store.library.count(matching: ArticleQuery()) + (try await store.library.count(matching: ArticleQuery(filter: .trash)))
        #expect(all == 35)
        #expect(try store.outbox().count == 35)
        #expect(try await store.library.articles(matching: ArticleQuery(searchText: "the")).count > 0)
    }
}
