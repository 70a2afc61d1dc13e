import Foundation
import Library
import SyncProtocol
import SyncTestSupport
import Testing
@testable import SyncClient

/// The article's language between two libraries through a real quire-server: it reaches the other
/// device, and an edit there (whose content states the language too) keeps it.
@Suite struct LanguageSyncTests {
    typealias Devices = ConflictEndToEndTests.Devices

    @Test func theLanguageReachesTheOtherDeviceAndStaysThroughItsEdits() async throws {
        let devices = try Devices()
        defer { devices.stop() }
        let id = try await devices.sharedArticle("Body.\n")
        try await devices.a.library.editArticle(id, language: "de_DE")
        try await devices.a.sync(devices.server, token: devices.token)
        try await devices.b.sync(devices.server, token: devices.token)
        #expect(try await devices.b.library.article(id).language == "de_DE")

        try await devices.b.library.editArticle(id, body: "Text auf B.\n")
        try await devices.b.sync(devices.server, token: devices.token)
        try await devices.a.sync(devices.server, token: devices.token)
        let onA = try await devices.a.library.article(id)
        #expect(onA.language == "de_DE" && onA.body == "Text auf B.\n")

        try await devices.b.library.editArticle(id, language: "fr")
        try await devices.b.sync(devices.server, token: devices.token)
        try await devices.a.sync(devices.server, token: devices.token)
        #expect(try await devices.a.library.article(id).language == "fr")
        try await devices.expectConverged()
    }

    /// A server from before languages (protocol version 1, which refuses `language`) gets writes
    /// without it, so every push is accepted; each device keeps its article's language, through
    /// its own pushes and the other's edits, without a conflict. Once the same server is upgraded,
    /// the language travels.
    @Test func aServerFromBeforeLanguagesNeverSeesOneAndEachDeviceKeepsItsOwn() async throws {
        let old = try TestServer { $0.protocolVersion = 1 }
        let token = try old.addAccount()
        let a = try ClientLibrary("a")
        let b = try ClientLibrary("b")
        defer { a.remove(); b.remove() }
        var upgraded: TestServer?
        defer { upgraded?.stop() ?? old.stop() }

        // It acts as such a server: health says 1, and a write that names a language is refused.
        guard case let .success(health) = try await old.transport(token: token).health() else {
            Issue.record("health did not answer")
            return
        }
        #expect(health.protocolVersion == 1)
        let probe = WriteRequest(articleID: "probe", idempotencyKey: "probe-key",
                                 action: .put(ArticlePayload(title: "T", body: "B", language: "de_DE"), .absent))
        guard case let .rejected(rejection) = try await old.transport(token: token).send(probe) else {
            Issue.record("a version 1 server took a language")
            return
        }
        #expect(rejection.status == 400)

        let id = try await a.library.createArticle(ArticleContent(title: "Reise", body: "Erster Tag.\n", language: "de_DE")).id
        let first = try await a.sync(old, token: token)
        #expect(first.pushed == 1 && first.refused == 0)
        #expect(try await old.articles(token: token)[id]?.body == "Erster Tag.\n")
        #expect(try await old.articles(token: token)[id]?.language == nil)
        #expect(try await a.library.article(id).language == "de_DE")

        try await b.sync(old, token: token)
        #expect(try await b.library.article(id).language == ArticleLanguage.preferred, "B gives it its own default")

        try await b.library.editArticle(id, body: "Erster Tag, von B.\n")
        #expect(try await b.sync(old, token: token).refused == 0)
        try await a.sync(old, token: token)
        let onA = try await a.library.article(id)
        #expect(onA.body == "Erster Tag, von B.\n" && onA.language == "de_DE")
        try await a.library.editArticle(id, language: "fr")
        #expect(try await a.sync(old, token: token).refused == 0)
        #expect(try await a.library.article(id).language == "fr")
        for device in [a, b] {
            #expect(try await device.library.openConflicts().isEmpty)
            #expect(try await device.waitingOperations() == 0)
        }

        // The same data served by the current version: A's next write carries its language.
        old.shutDown()
        let current = try TestServer(folder: old.folder, port: old.port)
        upgraded = current
        try await a.library.editArticle(id, body: "Zweiter Tag.\n")
        #expect(try await a.sync(current, token: token).refused == 0)
        #expect(try await current.articles(token: token)[id]?.language == "fr")
        try await b.sync(current, token: token)
        #expect(try await b.library.article(id).language == "fr")
    }

    /// A running worker does not keep a version-1 answer for its life: once its server is upgraded,
    /// its next pull asks again and the same worker's next write carries the language.
    @Test func aRunningWorkerLearnsOfItsServersUpgradeAtItsNextPull() async throws {
        let old = try TestServer { $0.protocolVersion = 1 }
        let token = try old.addAccount()
        let device = try ClientLibrary("upgrade")
        defer { device.remove() }
        var upgraded: TestServer?
        defer { upgraded?.stop() ?? old.stop() }

        let worker = device.worker(old, token: token)
        let id = try await device.library.createArticle(ArticleContent(title: "Reise", body: "Erster Tag.\n", language: "de_DE")).id
        #expect(try await worker.synchronize(settling: 5).refused == 0)
        #expect(try await old.articles(token: token)[id]?.language == nil)

        old.shutDown()
        let current = try TestServer(folder: old.folder, port: old.port)
        upgraded = current
        try await device.library.editArticle(id, body: "Zweiter Tag.\n")
        #expect(try await worker.synchronize(settling: 5).refused == 0)
        let stored = try await current.articles(token: token)[id]
        #expect(stored?.body == "Zweiter Tag.\n")
        #expect(stored?.language == "de_DE", "the worker still wrote as to a version 1 server")
    }
}
