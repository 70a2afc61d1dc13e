import Foundation
import Library
import SyncProtocol
import Testing
@testable import SyncClient

/// Tags, status and favorites between two libraries through a real quire-server: each device's
/// change reaches the other, concurrent tag edits on both sides merge without losing a tag, a
/// renamed tag travels as every article's new tag, and a version pulled in is recorded in the
/// receiving library's history.
@Suite struct TagSyncTests {
    typealias Devices = ConflictEndToEndTests.Devices

    @Test func tagsAndStatusReachTheOtherDevice() async throws {
        let devices = try Devices()
        defer { devices.stop() }
        let id = try await devices.sharedArticle("Body.\n")
        try await devices.a.library.tagArticles([id], with: "essay")
        try await devices.a.library.setStatus(.ready, for: [id])
        try await devices.a.sync(devices.server, token: devices.token)
        try await devices.b.sync(devices.server, token: devices.token)
        let onB = try await devices.b.library.article(id)
        #expect(onB.tags == ["essay", "sync"] && onB.status == .ready)
        #expect(try await devices.b.library.counts().statuses[.ready] == 1)
        #expect(try await devices.b.library.articles(matching: ArticleQuery(searchText: "tag:essay status:ready")).map(\.id) == [id])
        try await devices.expectConverged()
    }

    @Test func concurrentTagEditsOnBothSidesMergeAndLoseNothing() async throws {
        let devices = try Devices()
        defer { devices.stop() }
        let id = try await devices.sharedArticle("Body.\n")
        // A adds one tag and removes "sync"; B adds two others and sets a status, offline at once.
        try await devices.a.library.tagArticles([id], with: "from-a")
        try await devices.a.library.untagArticles([id], from: "sync")
        try await devices.b.library.tagArticles([id], with: "from-b")
        try await devices.b.library.tagArticles([id], with: "both")
        try await devices.b.library.setStatus(.published, for: [id])
        try await devices.a.sync(devices.server, token: devices.token)
        let summary = try await devices.b.sync(devices.server, token: devices.token)
        #expect(summary.status.openConflicts == 0, "tag sets merge without the writer")
        try await devices.a.sync(devices.server, token: devices.token)

        let articles = try await devices.expectConverged()
        let merged = try #require(articles[id])
        #expect(Set(merged.tags) == ["from-a", "from-b", "both"], "every addition kept, A's removal kept")
        #expect(merged.status == .published)
    }

    @Test func aRenamedTagTravelsWithEveryArticle() async throws {
        let devices = try Devices()
        defer { devices.stop() }
        let first = try await devices.sharedArticle("One.\n", title: "One")
        let second = try await devices.sharedArticle("Two.\n", title: "Two")
        try await devices.a.library.renameTag("sync", to: "synced")
        try await devices.a.sync(devices.server, token: devices.token)
        try await devices.b.sync(devices.server, token: devices.token)
        #expect(try await devices.b.library.article(first).tags == ["synced"])
        #expect(try await devices.b.library.article(second).tags == ["synced"])
        #expect(try await devices.b.library.tags().first { $0.name == "synced" }?.articleCount == 2)
        try await devices.expectConverged()
    }

    @Test func textPulledInIsRecordedInTheHistory() async throws {
        let devices = try Devices()
        defer { devices.stop() }
        let id = try await devices.sharedArticle("First.\n")
        try await devices.a.library.editArticle(id, body: "Edited on A.\n")
        try await devices.a.sync(devices.server, token: devices.token)
        try await devices.b.sync(devices.server, token: devices.token)
        let history = try await devices.b.library.history(of: id)
        #expect(history.map(\.source) == [.synced, .synced], "the first pull and the edit, newest first")
        #expect(try await devices.b.library.version(try #require(history.first).id).body == "Edited on A.\n")
        #expect(try await devices.a.library.history(of: id).isEmpty, "no session ended on A: versions are local")
    }
}
