import Foundation
import Library
import SyncProtocol
import SyncTestSupport
import Testing
import QuireTestSupport
@testable import SyncClient
import Platform

/// Two devices edit the same articles while every kind of network fault hits their requests
/// (seeded, so that a failing run replays): after quiescence both libraries and the server hold
/// identical articles, and every edit a device saved is there.
@Suite struct FaultConvergenceTests {
    /// Lines 0–9 are device A's to edit, 20–29 device B's; the unique lines between keep the
    /// three-way merges of their concurrent edits clean.
    static let lineCount = 30
    static func initialBody(_ article: Int) -> String {
        (0..<lineCount).map { "Article \(article), line \($0), as first written." }.joined(separator: "\n") + "\n"
    }

    static let faults: [Fault] = [
        .dropRequest, .dropResponse, .duplicateRequest, .concurrentDuplicate, .delay(1.3),
        .answer(status: 429, retryAfter: "1"), .answer(status: 503, retryAfter: nil), .cutRequestMidBody, .cutResponseMidBody,
    ]

    @Test(.timeLimit(.minutes(2)), arguments: [101, 202, 303] as [UInt64])
    func everySavedEditSurvivesTheFaults(seed: UInt64) async throws {
        let server = try TestServer()
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop(); server.stop() }
        let token = try server.addAccount()
        let a = try ClientLibrary("faults-a")
        let b = try ClientLibrary("faults-b")
        defer { a.remove(); b.remove() }
        var ids: [UUID] = []
        for article in 0..<3 {
            ids.append(try await a.library.createArticle(ArticleContent(title: "Shared \(article)", body: Self.initialBody(article))).id)
        }
        try await a.sync(server, token: token)
        try await b.sync(server, token: token)

        proxy.randomize(seed: seed, rate: 0.35, faults: Self.faults)
        let workerA = a.worker(server, token: token, port: proxy.port, timeout: 1)
        let workerB = b.worker(server, token: token, port: proxy.port, timeout: 1)
        await workerA.start()
        await workerB.start()

        // What each saved edit left, line by line: the last save of a line is what must survive.
        var expected: [UUID: [String]] = Dictionary(uniqueKeysWithValues: ids.enumerated().map { index, id in
            (id, Self.initialBody(index).components(separatedBy: "\n"))
        })
        var random = SeededGenerator(seed: seed)
        for step in 0..<40 {
            let (device, lines, name) = step % 2 == 0 ? (a, 0..<10, "A") : (b, 20..<30, "B")
            let id = ids[Int.random(in: 0..<3, using: &random)]
            let line = Int.random(in: lines, using: &random)
            expected[id]![line] = "\(name) edit \(step) of line \(line)."
            try await device.edit(id, line: line, to: expected[id]![line])
            if step == 20 {
                let own = try await device.library.createArticle(ArticleContent(title: "Made by \(name) under faults", body: "Own.\n"))
                ids.append(own.id)
                expected[own.id] = ["Own.", ""]
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 5...40, using: &random)))
        }

        // The network heals; the workers settle by themselves.
        proxy.randomize(seed: seed, rate: 0, faults: [])
        workerA.syncNow()
        workerB.syncNow()
        let settled = await eventually(within: 30) {
            let (waitingA, waitingB) = (try? await a.waitingOperations(), try? await b.waitingOperations())
            return waitingA == 0 && waitingB == 0
        }
        #expect(settled, "seed \(seed): the outboxes did not empty; proxy log: \(proxy.log.suffix(20))")
        await workerA.stop()
        await workerB.stop()
        for device in [a, b, a] { try await device.sync(server, token: token) }

        let onServer = try await server.articles(token: token)
        #expect(try await a.articles() == onServer, "seed \(seed)")
        #expect(try await b.articles() == onServer, "seed \(seed)")
        for (id, lines) in expected {
            #expect(onServer[id]?.body == lines.joined(separator: "\n"), "seed \(seed): article \(id)")
        }
        #expect(try await a.library.openConflicts().isEmpty)
        #expect(try await b.library.openConflicts().isEmpty)
        #expect(proxy.log.contains { $0.fault != .none }, "the run met faults")
    }
}
