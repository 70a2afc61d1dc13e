import Foundation
import Library
import ObjectGraph
import SyncProtocol
import SyncTestSupport
import Testing
import QuireTestSupport
@testable import SyncClient

/// Stopping the worker in the middle of a push (sign out, quit): the requests on the wire are
/// cancelled and their operations looked up later, nothing more is sent, and the next worker
/// delivers everything once.
@Suite struct StopTests {
    @Test func aWorkerStoppedMidPushStartsNothingMoreAndTheNextDeliversEverythingOnce() async throws {
        let server = try TestServer()
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop(); server.stop() }
        let token = try server.addAccount()
        let device = try ClientLibrary("stopped")
        defer { device.remove() }
        for index in 0..<12 {
            try await device.library.createArticle(ArticleContent(title: "Draft \(index)", body: "Words \(index).\n"))
        }
        // Every request is held until the worker has stopped: the first round is on the wire
        // when the stop lands, however slow the machine (a 3 s delay ran out under load and let
        // answers through before the stop).
        proxy.randomize(seed: 1, rate: 1, faults: [.hold])
        let worker = device.worker(server, token: token, port: proxy.port, timeout: 10)
        await worker.start()
        #expect(await eventually { proxy.log.contains { $0.request.hasPrefix("PUT ") } })
        await worker.stop()

        let states = try await device.library.container.performBackgroundTask { context in
            try context.fetch(FetchRequest<SyncOperation>()).map(\.state)
        }
        #expect(states.count == 12)
        // Only the first round's requests went out (four at most in flight); the rest wait unsent.
        #expect(states.filter { $0 == .pending }.count >= 12 - 4, "\(states)")
        #expect(states.allSatisfy { $0 == .pending || $0 == .unknownOutcome }, "\(states)")

        proxy.randomize(seed: 1, rate: 0, faults: [])
        proxy.releaseHeldRequests()
        try await device.sync(server, token: token)
        #expect(try await device.waitingOperations() == 0)
        #expect(try await server.articles(token: token).count == 12)
        guard case let .success(feed) = try await server.transport(token: token).changes(since: 0, limit: 100) else {
            Issue.record("the feed did not answer")
            return
        }
        #expect(feed.changes.count == 12, "each write applied once")
    }
}
