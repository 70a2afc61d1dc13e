import Foundation
import Library
import ObjectGraph
import SyncProtocol
import SyncTestSupport
import Testing
import QuireTestSupport
@testable import SyncClient

/// Two workers on one library (two containers on one file, as two processes would have): only the
/// lease holder pushes, a lost lease stops a worker before it writes, and the lease of a process
/// that is gone is taken over at once.
@Suite struct LeaseTests {
    func worker(_ device: ClientLibrary, _ server: TestServer, token: String, label: String, log: RecordingTransport.WriteLog) -> SyncWorker {
        let url = URL(string: "http://127.0.0.1:\(server.port)")!
        // No test here lets a lease run out: takeovers come from a stop (which releases it), a
        // process that is gone, or a write. A minute keeps the holder's lease through any stall of
        // a loaded machine (with five seconds, one flake-hunt run under stress-ng saw the second
        // worker take over from a first starved of the cooperative pool's two threads).
        var configuration = SyncWorkerConfiguration.forTests(server: url)
        configuration.leaseDuration = 60
        return SyncWorker(
            library: device.library, transport: RecordingTransport(label, server.transport(token: token), log: log),
            configuration: configuration)
    }

    @Test func onlyTheLeaseHolderPushesAndTheOtherTakesOverWhenItStops() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let token = try server.addAccount()
        let first = try ClientLibrary("lease")
        let second = try ClientLibrary(sharing: first)
        defer { first.remove() }
        let log = RecordingTransport.WriteLog()
        let a = worker(first, server, token: token, label: "a", log: log)
        let b = worker(second, server, token: token, label: "b", log: log)
        await a.start()
        #expect(await eventually { if case .idle = a.status.current.activity { true } else { false } })
        await b.start()
        #expect(await eventually { if case .waitingForLease = b.status.current.activity { true } else { false } })
        await #expect(throws: SyncStoreError.self) { _ = try await b.synchronize() }

        var ids: [UUID] = []
        for index in 0..<12 {
            // Edits through both library instances: each worker wakes on them.
            let device = index % 2 == 0 ? first : second
            ids.append(try await device.library.createArticle(ArticleContent(title: "Article \(index)", body: "Body\n")).id)
        }
        #expect(try await eventually {
            let waiting = try await first.waitingOperations()
            let onServer = try await server.articles(token: token)
            return waiting == 0 && onServer.count == 12
        })
        #expect(Set(log.all.map(\.sender)) == ["a"])

        await a.stop()
        for id in ids.prefix(4) { try await second.library.editArticle(id, body: "Edited after a stopped\n") }
        #expect(try await eventually {
            let waiting = try await second.waitingOperations()
            let onServer = try await server.articles(token: token)
            return waiting == 0 && onServer[ids[3]]?.body == "Edited after a stopped\n"
        })
        await b.stop()
        let keys = log.all.map(\.key)
        #expect(keys.count == Set(keys).count, "every operation is sent once")
        #expect(log.all.filter { $0.sender == "b" }.count == 4)
    }

    @Test func aWorkerWhoseLeaseWasTakenOverStopsAndWritesNothingMore() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let token = try server.addAccount()
        let device = try ClientLibrary("lease-lost")
        defer { device.remove() }
        let log = RecordingTransport.WriteLog()
        let a = worker(device, server, token: token, label: "a", log: log)
        await a.start()
        #expect(await eventually { if case .idle = a.status.current.activity { true } else { false } })

        // Another process takes the lease over (as after an expiry the worker missed, stalled).
        try await device.library.container.performBackgroundTask { context in
            let lease = try #require(try context.fetch(FetchRequest<SyncLease>()).first)
            lease.owner = "elsewhere/1/other"
            lease.expires = Date() + 3600
            _ = try context.save()
        }
        try await device.library.createArticle(ArticleContent(title: "Made after the takeover", body: "x\n"))
        #expect(await eventually { if case .waitingForLease(owner: "elsewhere/1/other", _) = a.status.current.activity { true } else { false } })
        await a.stop()
        #expect(log.all.isEmpty)
        #expect(try await device.waitingOperations() == 1)
        #expect(try await server.articles(token: token).isEmpty)
        let lease = try await device.library.container.performBackgroundTask { context in
            try context.fetch(FetchRequest<SyncLease>()).first?.owner
        }
        #expect(lease == "elsewhere/1/other", "a worker that lost the lease leaves it alone")
    }

    @Test func theLeaseOfAProcessThatIsGoneIsTakenOverAtOnce() async throws {
        let device = try ClientLibrary("lease-gone")
        defer { device.remove() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        await process.exited()
        let store = SyncStore(library: device.library, lease: LeaseClaim(owner: .thisProcess(), duration: 60))
        let alive = SyncStore(library: device.library, lease: LeaseClaim(owner: .thisProcess(), duration: 60))
        #expect(try await alive.acquireLease() == .held)
        guard case .heldElsewhere = try await store.acquireLease() else {
            Issue.record("a live holder's lease is not taken")
            return
        }
        let host = try #require(LeaseOwner.thisProcess().description.split(separator: "/").first)
        try await device.library.container.performBackgroundTask { context in
            let lease = try #require(try context.fetch(FetchRequest<SyncLease>()).first)
            lease.owner = "\(host)/\(process.processIdentifier)/gone"
            _ = try context.save()
        }
        #expect(try await store.acquireLease() == .held)
    }
}
