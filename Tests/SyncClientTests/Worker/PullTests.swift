import Foundation
import Library
import ObjectGraph
import SyncProtocol
import SyncTestSupport
import Testing
@testable import SyncClient

/// The pull side: a page applied twice changes nothing, and a 410 resyncs from the snapshot
/// without losing pending local edits.
@Suite struct PullTests {
    /// Everything sync writes into a library, as comparable values.
    struct LibraryState: Hashable {
        var articles: [UUID: String] = [:]
        var bases: [UUID: String] = [:]
        var operations: [String] = []
        var conflicts = 0
    }

    static func state(of device: ClientLibrary) async throws -> LibraryState {
        try await device.library.container.performBackgroundTask { context in
            var state = LibraryState()
            for article in try context.fetch(FetchRequest<StoredArticle>()) {
                state.articles[article.id] = "\(article.content.normalized) trashed:\(article.trashed.map { "\($0)" } ?? "no") "
                    + "rev:\(article.serverRevision ?? -1) local:\(article.localRevision) \(article.syncState) updated:\(article.updated)"
            }
            for base in try context.fetch(FetchRequest<ArticleBase>()) {
                state.bases[base.articleID] = "\(base.revision) \(base.content)"
            }
            state.operations = try context.fetch(FetchRequest<SyncOperation>(sortDescriptors: [.ascending(\.sequence)]))
                .map { "\($0.operationID) \($0.state) \(String(describing: $0.payload))" }
            state.conflicts = try context.count(for: FetchRequest<Conflict>())
            return state
        }
    }

    /// Applies a feed page in one transaction of `device`'s worker store, as a pull does.
    static func apply(_ page: ChangesPage, to device: ClientLibrary) async throws -> RemoteVersionApplier.Progress {
        let store = SyncStore(library: device.library, lease: LeaseClaim(owner: .thisProcess(), duration: 60))
        try #require(try await store.acquireLease() == .held)
        let versions = page.changes.map { (id: $0.id, version: RemoteVersion($0)) }
        // Given up before the next apply takes it: a release left to run later took the next
        // apply's lease away from under it.
        let progress: RemoteVersionApplier.Progress
        do {
            progress = try await store.write("test page") { context, now in
                try RemoteVersionApplier(context: context, now: now).apply(versions)
            }
        } catch {
            try? await store.releaseLease()
            throw error
        }
        try await store.releaseLease()
        return progress
    }

    @Test func aPageAppliedTwiceChangesNothing() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let token = try server.addAccount()
        let a = try ClientLibrary("a")
        let b = try ClientLibrary("b")
        defer { a.remove(); b.remove() }
        var ids: [UUID] = []
        for index in 0..<6 {
            ids.append(try await a.library.createArticle(
                ArticleContent(title: "Article \(index)", body: "Body \(index)\n", folder: index % 2 == 0 ? "Even" : nil, tags: ["t\(index)"])).id)
        }
        try await a.sync(server, token: token)
        try await a.library.editArticle(ids[1], body: "Body 1, edited\n")
        try await a.library.moveToTrash([ids[2]])
        try await a.sync(server, token: token)
        // B has an unsent edit of another line of article 3, which a newer server version meets.
        try await b.sync(server, token: token)
        try await b.library.editArticle(ids[3], title: "Article 3 on B")
        try await a.library.editArticle(ids[3], body: "Body 3, edited on A\n")
        try await a.sync(server, token: token)

        guard case let .success(page) = try await server.transport(token: token).changes(since: 0, limit: 1000) else {
            Issue.record("the feed did not answer")
            return
        }
        let first = try await Self.apply(page, to: b)
        #expect(first.blockedBy == nil && first.applied == page.changes.count)
        #expect(first.tally.merged == 1)
        let once = try await Self.state(of: b)
        let second = try await Self.apply(page, to: b)
        #expect(second.tally.unchanged == page.changes.count, "\(second.tally)")
        #expect(try await Self.state(of: b) == once)

        // The worker's own pull from cursor 0 again: nothing changes either.
        try await b.library.container.performBackgroundTask { context in
            for cursor in try context.fetch(FetchRequest<SyncCursor>()) { cursor.cursor = 0 }
            _ = try context.save()
        }
        let afterReset = try await Self.state(of: b)
        let store = SyncStore(library: b.library, lease: LeaseClaim(owner: .thisProcess(), duration: 60))
        _ = try await store.acquireLease()
        let cycle = SyncCycle(store: store, transport: server.transport(token: token),
                              configuration: .forTests(server: URL(string: "http://127.0.0.1:\(server.port)")!))
        let report = try await cycle.pull()
        try await store.releaseLease()
        #expect(report.end == .caughtUp)
        #expect(try await Self.state(of: b) == afterReset)

        try await b.sync(server, token: token)
        try await a.sync(server, token: token)
        #expect(try await a.articles() == server.articles(token: token))
        #expect(try await b.articles() == server.articles(token: token))
        #expect(try await b.articles()[ids[3]] == ArticleContent(title: "Article 3 on B", body: "Body 3, edited on A\n", tags: ["t3"]))
    }

    @Test func aCursorTheFeedCannotContinueResyncsFromTheSnapshotKeepingLocalEdits() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let token = try server.addAccount()
        let a = try ClientLibrary("a")
        let b = try ClientLibrary("b")
        defer { a.remove(); b.remove() }
        var ids: [UUID] = []
        for index in 0..<10 {
            ids.append(try await a.library.createArticle(ArticleContent(title: "Article \(index)", body: "Body \(index)\n")).id)
        }
        try await a.sync(server, token: token)
        try await b.sync(server, token: token)
        try await a.library.editArticle(ids[0], body: "Body 0, edited on A\n")
        try await a.library.moveToTrash([ids[1]])
        try await a.sync(server, token: token)
        try await b.library.editArticle(ids[2], body: "Body 2, edited on B\n")
        try await b.library.editArticle(ids[1], title: "Article 1, edited on B while A deleted it")
        let created = try await b.library.createArticle(ArticleContent(title: "New on B", body: "Fresh\n"))
        // A cursor the server's feed never gave: 410 resyncRequired.
        try await b.library.container.performBackgroundTask { context in
            for cursor in try context.fetch(FetchRequest<SyncCursor>()) { cursor.cursor = 1_000_000 }
            _ = try context.save()
        }

        let summary = try await b.sync(server, token: token)
        #expect(summary.resynced)
        let conflicts = try await b.library.openConflicts()
        #expect(conflicts.count == 1 && conflicts.first?.articleID == ids[1] && conflicts.first?.remote == nil)
        try await b.library.resolveConflict(try #require(conflicts.first).id, .acceptDelete)
        try await b.sync(server, token: token)
        try await a.sync(server, token: token)

        let onServer = try await server.articles(token: token)
        #expect(try await a.articles() == onServer)
        #expect(try await b.articles() == onServer)
        #expect(onServer[ids[0]]?.body == "Body 0, edited on A\n")
        #expect(onServer[ids[1]] == nil)
        #expect(onServer[ids[2]]?.body == "Body 2, edited on B\n")
        #expect(onServer[created.id]?.title == "New on B")
        #expect(onServer.count == 10)
    }
}
