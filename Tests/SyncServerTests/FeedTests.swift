import Foundation
@testable import SyncServer
import SyncProtocol
import Testing

/// The change feed and the snapshot over loopback.
@Suite struct FeedTests {
    @Test func changesPageInCommitOrderAndTheLimitIsCapped() throws {
        let server = try TestServer { $0.maximumPageSize = 3; $0.defaultPageSize = 2 }
        defer { server.stop() }
        let client = server.client(try server.addAccount("alice"))
        for index in 0..<5 { try client.create("a\(index)", ArticlePayload(title: "\(index)", body: "")) }

        let first = try client.changes(since: 0).decode(ChangesPage.self)
        #expect(first.changes.map(\.id) == ["a0", "a1"] && first.hasMore && first.nextCursor == first.changes[1].cursor)
        let capped = try client.changes(since: first.nextCursor, limit: 100).decode(ChangesPage.self)
        #expect(capped.changes.map(\.id) == ["a2", "a3", "a4"] && !capped.hasMore)
        let empty = try client.changes(since: capped.nextCursor).decode(ChangesPage.self)
        #expect(empty.changes.isEmpty && empty.nextCursor == capped.nextCursor && !empty.hasMore)
    }

    @Test func aCursorBeyondTheHorizonOrTheHeadGets410() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = server.client(try server.addAccount("alice"))
        let revision = try #require(try client.create("a", ArticlePayload(title: "A", body: "")).revision)
        try client.delete("a", base: revision)
        try client.create("b", ArticlePayload(title: "B", body: ""))
        let head = try client.allChanges().last!.cursor

        let ahead = try client.changes(since: head + 1)
        #expect(ahead.status == 410 && ahead.problem?.type == .resyncRequired)

        QuireServer.purge(server.storage, retention: -3600, blobGrace: 3600, log: .discarding)
        #expect(try client.changes(since: 0).problem?.type == .resyncRequired)
        #expect(try client.changes(since: head).status == 200)
    }

    @Test func theSnapshotPagesByIDAndCarriesTheCursorToResumeFrom() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = server.client(try server.addAccount("alice"))
        for id in ["c", "a", "b"] { try client.create(id, ArticlePayload(title: id, body: "")) }
        let first = try client.send("GET", SyncPath.articles + "?limit=2").decode(ArticlesPage.self)
        #expect(first.articles.map(\.id) == ["a", "b"] && first.hasMore)

        // A change while the snapshot is read shows up in the feed from the first page's cursor.
        let changedDuring = try client.update("a", ArticlePayload(title: "a2", body: ""), base: first.articles[0].revision)
        let second = try client.send("GET", SyncPath.articles + "?after=b&limit=2").decode(ArticlesPage.self)
        #expect(second.articles.map(\.id) == ["c"] && !second.hasMore)
        #expect(try client.allChanges(since: first.cursor).map(\.revision) == [changedDuring.revision])
    }
}
