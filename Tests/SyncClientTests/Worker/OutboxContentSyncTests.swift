import Foundation
import Library
import SyncProtocol
import SyncTestSupport
import Synchronization
import Testing
@testable import SyncClient

/// A put in the outbox keeps no copy of its article while it waits: the worker sends the article as
/// stored when it first sends it, and from then on that content is the operation's, resent under
/// its key however the article changes meanwhile. Against a real server.
@Suite struct OutboxContentSyncTests {
    /// Records the body of every write it sends; the first fails before reaching the server, after
    /// `meanwhile` ran (the writer typing while the request is on its way).
    final class FirstSendFailingTransport: ForwardingTransport {
        let inner: any SyncTransport
        private let meanwhile: @Sendable () async throws -> Void
        private let sent = Mutex<[(key: String, body: String?)]>([])

        init(_ inner: any SyncTransport, meanwhile: @escaping @Sendable () async throws -> Void) {
            self.inner = inner
            self.meanwhile = meanwhile
        }

        /// Each write's idempotency key and body, in the order sent.
        var writes: [(key: String, body: String?)] { sent.withLock { $0 } }

        func send(_ write: WriteRequest) async throws(TransportError) -> WriteAnswer {
            var body: String?
            if case let .put(payload, _) = write.action { body = payload.body }
            let first = sent.withLock { writes in
                writes.append((write.idempotencyKey, body))
                return writes.count == 1
            }
            guard first else { return try await inner.send(write) }
            do { try await meanwhile() } catch { Issue.record(error, "the edit meanwhile failed") }
            throw .notSent(TransportFailure(method: write.method, path: SyncPath.article(write.articleID), reason: "the first send fails"))
        }
    }

    @Test func aResendCarriesWhatTheFirstSendTookAndAnEditMeanwhileFollows() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let token = try server.addAccount()
        let device = try ClientLibrary("outbox-content")
        defer { device.remove() }
        let library = device.library
        let article = try await library.createArticle(ArticleContent(title: "Tide", body: "v1\n"))

        let transport = FirstSendFailingTransport(server.transport(token: token)) {
            _ = try await library.saveEditorText(Library.EditorText(articleID: article.id, title: "Tide", body: "v2\n", base: ("Tide", "v1\n")))
        }
        let worker = SyncWorker(
            library: library, transport: transport, configuration: .forTests(server: URL(string: "http://127.0.0.1:\(server.port)")!))
        _ = try await worker.synchronize(settling: 5)

        let writes = transport.writes
        #expect(writes.map(\.body) == ["v1\n", "v1\n", "v2\n"], "the resend carries what the first send took; the edit follows")
        #expect(writes.count == 3 && writes[0].key == writes[1].key && writes[1].key != writes[2].key)
        #expect(try await server.articles(token: token)[article.id]?.body == "v2\n")
        #expect(try await library.article(article.id).syncState == .synced)
    }

    @Test func editsSavedBeforeTheProcessEndedAreSentAsStored() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let token = try server.addAccount()
        let first = try ClientLibrary("outbox-content-reopened")
        defer { first.remove() }
        let article = try await first.library.createArticle(ArticleContent(title: "Tide", body: "v1\n"))
        var base = ("Tide", "v1\n")
        for body in ["v2\n", "v3\n"] {
            _ = try await first.library.saveEditorText(Library.EditorText(articleID: article.id, title: "Tide", body: body, base: base))
            base = ("Tide", body)
        }
        try await first.library.createFolder(named: "Harbour")
        try await first.library.moveArticles([article.id], toFolder: "Harbour")
        first.library.close()

        // The next process on the library: only the articles hold what the waiting operation sends.
        let second = try ClientLibrary(sharing: first)
        try await second.sync(server, token: token)
        let held = try await server.articles(token: token)[article.id]
        #expect(held?.body == "v3\n")
        #expect(held?.folder == "Harbour")
        #expect(try await second.articles() == server.articles(token: token))
    }
}
