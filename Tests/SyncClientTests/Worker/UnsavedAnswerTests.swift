import Foundation
import Library
import ObjectGraph
import SyncTestSupport
import Synchronization
import SyncProtocol
import Testing
import QuireTestSupport
@testable import SyncClient

/// A worker that died after the server applied its write and before it saved the answer: the
/// operation is still `sending` in the library. The next worker looks its key up and takes the
/// stored answer instead of writing again, and the dead worker, should it wake, saves nothing.
@Suite struct UnsavedAnswerTests {
    /// Passes writes on to the server, then holds their answers back until released and loses
    /// them: a process stopped between the server's answer and its own commit.
    final class AnswerHoldingTransport: ForwardingTransport {
        let inner: any SyncTransport
        private let released = Mutex(false)
        private let applied = Mutex(0)

        init(_ inner: any SyncTransport) {
            self.inner = inner
        }

        /// Writes the server applied whose answers are held.
        var heldAnswers: Int { applied.withLock { $0 } }

        /// Lets the held requests end, without their answers.
        func release() { released.withLock { $0 = true } }

        func send(_ write: WriteRequest) async throws(TransportError) -> WriteAnswer {
            _ = try await inner.send(write)
            applied.withLock { $0 += 1 }
            while !released.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(10)) }
            throw .outcomeUnknown(TransportFailure(method: write.method, path: SyncPath.article(write.articleID), reason: "the answer was held back"))
        }
    }

    @Test func anAnswerTheServerGaveButTheLibraryNeverSavedIsLookedUpNotWrittenAgain() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let token = try server.addAccount()
        let first = try ClientLibrary("unsaved-answer")
        defer { first.remove() }
        let url = URL(string: "http://127.0.0.1:\(server.port)")!
        var edited: [UUID] = []
        for index in 0..<3 {
            edited.append(try await first.library.createArticle(ArticleContent(title: "Draft \(index)", body: "Words \(index).\n")).id)
        }

        // The dying worker: the server applies its three writes, it never saves the answers.
        let holding = AnswerHoldingTransport(server.transport(token: token))
        let dying = SyncWorker(library: first.library, transport: holding, configuration: .forTests(server: url))
        let dyingSync = Task { try await dying.synchronize() }
        #expect(await eventually { holding.heldAnswers == 3 })
        #expect(try await server.articles(token: token).count == 3)
        let sending = try await first.library.container.performBackgroundTask { context in
            try context.count(for: FetchRequest<SyncOperation>(predicate: \.state == SyncOperationState.sending))
        }
        #expect(sending == 3)

        // It is gone as after kill -9: its lease names a process that no longer runs.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        await gone.exited()
        let host = try #require(LeaseOwner.thisProcess().description.split(separator: "/").first)
        try await first.library.container.performBackgroundTask { context in
            let lease = try #require(try context.fetch(FetchRequest<SyncLease>()).first)
            lease.owner = "\(host)/\(gone.processIdentifier)/gone"
            _ = try context.save()
        }

        // The next process on the library.
        let second = try ClientLibrary(sharing: first)
        let log = RecordingTransport.WriteLog()
        let next = SyncWorker(
            library: second.library, transport: RecordingTransport("next", server.transport(token: token), log: log),
            configuration: .forTests(server: url))
        let summary = try await next.synchronize()
        #expect(summary.pushed == 3)
        #expect(log.all.isEmpty, "no write is sent again: \(log.all)")
        #expect(try await second.waitingOperations() == 0)
        guard case let .success(feed) = try await server.transport(token: token).changes(since: 0, limit: 100) else {
            Issue.record("the feed did not answer")
            return
        }
        #expect(feed.changes.count == 3, "each write applied once")
        let bases = try await second.library.container.performBackgroundTask { context in
            try context.fetch(FetchRequest<ArticleBase>()).map { ($0.articleID, $0.revision) }
        }
        #expect(Dictionary(uniqueKeysWithValues: bases) == Dictionary(uniqueKeysWithValues: feed.changes.map { (UUID(uuidString: $0.id)!, $0.revision) }))

        // The dead worker wakes: its lease is gone, so it saves nothing.
        holding.release()
        await #expect(throws: SyncStoreError.self) { _ = try await dyingSync.value }
        #expect(try await second.waitingOperations() == 0)
        #expect(try await server.articles(token: token).keys.sorted { $0.uuidString < $1.uuidString }
                == edited.sorted { $0.uuidString < $1.uuidString })
    }
}
