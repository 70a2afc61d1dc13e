import Foundation
import Library
import SyncProtocol
import SyncTestSupport
import Testing
import QuireTestSupport
@testable import SyncClient

/// What the app shows: offline while the server cannot be reached (with the changes that wait),
/// back to synced by itself when it can, and a refused change shown until dismissed, without
/// blocking the rest.
@Suite struct StatusTests {
    @Test func offlineWhileTheServerCannotBeReachedThenSyncedWhenItComesBack() async throws {
        let server = try TestServer()
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop(); server.stop() }
        let token = try server.addAccount()
        let device = try ClientLibrary("status")
        defer { device.remove() }
        // Every request dies on the way: the network is down.
        proxy.randomize(seed: 1, rate: 1, faults: [.dropRequest])
        let worker = device.worker(server, token: token, port: proxy.port, timeout: 1)
        await worker.start()
        try await device.library.createArticle(ArticleContent(title: "Written offline", body: "one\n"))
        try await device.library.createArticle(ArticleContent(title: "Also offline", body: "two\n"))
        #expect(await eventually {
            let status = worker.status.current
            guard case .offline = status.activity else { return false }
            return status.headline == .offline && status.waitingChanges == 2 && status.lastProblem?.isNetwork == true
        })

        proxy.randomize(seed: 1, rate: 0, faults: [])
        #expect(await eventually {
            let status = worker.status.current
            return status.headline == .synced && status.waitingChanges == 0 && status.lastSynced != nil
        })
        #expect(try await server.articles(token: token).count == 2)
        await worker.stop()
        #expect(worker.status.current.headline == .off)
    }

    @Test func aRefusedChangeIsShownUntilDismissedAndBlocksNothing() async throws {
        let server = try TestServer { $0.maximumBodyBytes = 4096 }
        defer { server.stop() }
        let token = try server.addAccount()
        let device = try ClientLibrary("refused")
        defer { device.remove() }
        let tooLarge = try await device.library.createArticle(
            ArticleContent(title: "Too large", body: String(repeating: "A long line of a long draft.\n", count: 400)))
        let worker = device.worker(server, token: token)
        var updates = worker.status.updates().makeAsyncIterator()
        #expect(await updates.next()?.activity == .stopped)
        await worker.start()
        let fine = try await device.library.createArticle(ArticleContent(title: "Fine", body: "short\n"))
        #expect(await eventually { worker.status.current.failures.count == 1 && worker.status.current.waitingChanges == 0 })
        let status = worker.status.current
        #expect(status.failures.first?.articleID == tooLarge.id && status.failures.first?.rejection.status == 413)
        #expect(status.failures.first?.articleTitle == "Too large")
        guard case .error = status.headline else {
            Issue.record("a refused change is an error in the header bar, not \(status.headline)")
            return
        }
        #expect(try await server.articles(token: token)[fine.id] != nil)

        // A later, smaller edit of the same article still goes out.
        try await device.library.editArticle(tooLarge.id, body: "Cut down.\n")
        #expect(try await eventually { try await server.articles(token: token)[tooLarge.id]?.body == "Cut down.\n" })
        try await SyncWorker.dismissFailure(try #require(status.failures.first).id, in: device.library)
        #expect(await eventually { worker.status.current.failures.isEmpty && worker.status.current.headline == .synced })
        await worker.stop()
    }
}
