import Foundation
import SyncClient
import SyncProtocol
import SyncTestSupport
import Testing
import Platform

/// The reducer and the transport together, through the fault proxy with seeded random faults,
/// against a real quire-server: every saved edit reaches the server exactly once.
@Suite struct DeliveryTests {
    static let faults: [Fault] = [
        .dropRequest, .dropResponse, .duplicateRequest, .concurrentDuplicate, .delay(1.6),
        .answer(status: 429, retryAfter: "1"), .answer(status: 503, retryAfter: nil), .cutRequestMidBody, .cutResponseMidBody,
    ]

    @Test(arguments: [UInt64(11), 12])
    func everyEditReachesTheServerExactlyOnceThroughFaults(seed: UInt64) async throws {
        let server = try TestServer()
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer {
            proxy.stop()
            server.stop()
        }
        let token = try server.addAccount()
        proxy.randomize(seed: seed, rate: 0.35, faults: Self.faults)
        var loop = PushLoop(transport: server.transport(token: token, port: proxy.port, timeout: 1),
                            policy: RetryPolicy(baseDelay: 0.05, maximumDelay: 0.4, maximumRetryAfter: 1), seed: seed)

        // The writer: 36 edits over four articles, some deletes and restores, saved while pushing.
        var writer = SeededGenerator(seed: seed)
        var local: [String: ArticlePayload?] = [:]
        var saved = 0
        await loop.run(edits: { loop in
            let article = "article-\(Int.random(in: 0..<4, using: &writer))"
            saved += 1
            if let existing = local[article], existing != nil, Int.random(in: 0..<10, using: &writer) == 0 {
                local[article] = .some(nil)
                _ = loop.save(.delete, of: article)
            } else {
                let content = ArticlePayload(title: article, body: "edit \(saved) of \(article)")
                local[article] = .some(content)
                _ = loop.save(.put(content), of: article)
            }
            // At least 36 edits, and more until six kinds of fault were met: how many requests
            // 36 edits make depends on how many the loop coalesces, so on the machine's speed.
            return saved < 36 || (Self.faultKinds(in: proxy) < 6 && saved < 600)
        }, editInterval: .milliseconds(40))

        #expect(loop.surprises.isEmpty, "\(loop.surprises)")
        #expect(loop.entries.values.allSatisfy { $0.state.isFinal }, "\(loop.entries)")
        guard case let .success(page) = try await server.transport(token: token).changes(since: 0, limit: 1000) else {
            Issue.record("the feed did not answer")
            return
        }
        // Every change on the server is one this library acknowledged, at the revision its
        // acknowledgement gave, and no edit is there twice.
        var acknowledgedRevisions = Set(loop.acknowledged.values.compactMap { version -> Int64? in
            if case let .deleted(tombstone) = version, tombstone == nil { return nil }
            return version.revision
        })
        var feedBodies: [String: Int] = [:]
        for change in page.changes {
            #expect(acknowledgedRevisions.remove(change.revision) != nil, "revision \(change.revision) was never acknowledged")
            if let body = change.article?.content.body { feedBodies[body, default: 0] += 1 }
        }
        #expect(acknowledgedRevisions.isEmpty, "acknowledged but not on the server: \(acknowledgedRevisions)")
        #expect(feedBodies.values.allSatisfy { $0 == 1 }, "an edit applied twice: \(feedBodies.filter { $0.value > 1 })")
        for (id, version) in loop.acknowledged {
            guard case let .live(article) = version else { continue }
            #expect(page.changes.contains { $0.revision == article.revision && $0.article == article }, "\(id) at \(article.revision)")
        }
        // Every article ends on the server as the writer left it.
        guard case let .success(snapshot) = try await server.transport(token: token).snapshot(after: nil, limit: 100) else {
            Issue.record("the snapshot did not answer")
            return
        }
        let onServer = Dictionary(uniqueKeysWithValues: snapshot.articles.map { ($0.id, $0.content) })
        for (article, content) in local {
            #expect(onServer[article] == content, "\(article)")
        }
        #expect(Self.faultKinds(in: proxy) >= 6, "faults injected: \(proxy.log.map(\.fault))")
        // Lost answers were resolved by looking their keys up.
        #expect(proxy.log.contains { $0.request.hasPrefix("GET /v1/operations/") })
    }

    /// How many different faults the proxy has injected so far.
    static func faultKinds(in proxy: FaultProxy) -> Int {
        Set(proxy.log.map { "\($0.fault)" }).subtracting(["none"]).count
    }
}
