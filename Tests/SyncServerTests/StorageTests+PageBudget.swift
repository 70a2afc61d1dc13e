import Foundation
@testable import SyncServer
import SyncProtocol
import Testing

extension StorageTests {
    /// Five articles of 1001 bytes each (500 two-byte characters and a one-byte title), so that
    /// a budget counted in characters would let every one through.
    func fiveHeavyArticles(_ storage: any SyncStorage) throws -> AccountID {
        let alice = try account(storage)
        for id in ["a", "b", "c", "d", "e"] {
            try write(storage, alice, id, .put(ArticlePayload(title: id, body: String(repeating: "é", count: 500)), .absent))
        }
        return alice
    }

    @Test(arguments: StorageKind.allCases)
    func feedPagesEndOnceTheirBytesReachTheBudget(_ kind: StorageKind) throws {
        try withStorage(kind) { storage in
            let alice = try fiveHeavyArticles(storage)
            // Before the 4th change the page holds 3003 bytes: past 2500, so it stops at 3.
            guard case let .page(first) = try storage.changes(account: alice, since: 0, limit: 10, maximumBytes: 2500),
                  case let .page(second) = try storage.changes(account: alice, since: first.nextCursor, limit: 10, maximumBytes: 2500)
            else { Issue.record("resync required"); return }
            #expect(first.changes.map(\.id) == ["a", "b", "c"] && first.hasMore)
            #expect(second.changes.map(\.id) == ["d", "e"] && !second.hasMore)

            // A change heavier than the whole budget still comes, one per page.
            var cursor: Int64 = 0
            var pages: [[String]] = []
            while true {
                guard case let .page(page) = try storage.changes(account: alice, since: cursor, limit: 10, maximumBytes: 10) else { break }
                pages.append(page.changes.map(\.id))
                cursor = page.nextCursor
                if !page.hasMore { break }
            }
            #expect(pages == [["a"], ["b"], ["c"], ["d"], ["e"]])

            // The row limit still holds when the budget is far away.
            guard case let .page(limited) = try storage.changes(account: alice, since: 0, limit: 2, maximumBytes: .max) else { return }
            #expect(limited.changes.map(\.id) == ["a", "b"] && limited.hasMore)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func snapshotPagesEndOnceTheirBytesReachTheBudget(_ kind: StorageKind) throws {
        try withStorage(kind) { storage in
            let alice = try fiveHeavyArticles(storage)
            let first = try storage.snapshot(account: alice, after: nil, limit: 10, maximumBytes: 2500)
            #expect(first.articles.map(\.id) == ["a", "b", "c"] && first.hasMore)
            let second = try storage.snapshot(account: alice, after: "c", limit: 10, maximumBytes: 2500)
            #expect(second.articles.map(\.id) == ["d", "e"] && !second.hasMore && second.cursor == first.cursor)
            #expect(second.articles.last?.content.body == String(repeating: "é", count: 500))
            #expect(try storage.snapshot(account: alice, after: "d", limit: 10, maximumBytes: 1).articles.map(\.id) == ["e"])
            let exact = try storage.snapshot(account: alice, after: nil, limit: 5, maximumBytes: .max)
            #expect(exact.articles.count == 5 && !exact.hasMore)
        }
    }
}
