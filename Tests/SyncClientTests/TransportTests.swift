import Foundation
import Glibc
import QuireTestSupport
import SyncClient
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing

/// `URLSessionTransport` against a real quire-server on loopback: every answer of the protocol
/// arrives as the right typed answer.
@Suite struct TransportTests {
    let content = ArticlePayload(title: "Notes", body: "# Notes\n\nFirst words.", tags: ["travel"])

    func put(_ id: String, _ content: ArticlePayload, _ precondition: WritePrecondition, key: String) -> WriteRequest {
        WriteRequest(articleID: id, idempotencyKey: key, action: .put(content, precondition))
    }

    func delete(_ id: String, base: Int64, key: String) -> WriteRequest {
        WriteRequest(articleID: id, idempotencyKey: key, action: .delete(base: base))
    }

    /// The live article of an applied write, or a recorded issue.
    func live(_ answer: WriteAnswer, replayed expected: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) -> Article? {
        guard case let .applied(.live(article), replayed) = answer else {
            Issue.record("expected a live article, got \(answer)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(replayed == expected, sourceLocation: sourceLocation)
        return article
    }

    @Test func writesArriveAsAppliedConflictedOrAlreadyGone() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let transport = server.transport(token: try server.addAccount())

        let created = try #require(live(try await transport.send(put("a1", content, .absent, key: "k1"))))
        #expect(created.id == "a1" && created.content == content)
        let replay = try #require(live(try await transport.send(put("a1", content, .absent, key: "k1")), replayed: true))
        #expect(replay == created)

        let edited = ArticlePayload(title: "Notes", body: "Second words.")
        let updated = try #require(live(try await transport.send(put("a1", edited, .revision(created.revision), key: "k2"))))
        #expect(updated.revision > created.revision && updated.content == edited)

        guard case let .conflict(server?) = try await transport.send(put("a1", content, .revision(created.revision), key: "k3")) else {
            Issue.record("a stale base must conflict")
            return
        }
        #expect(server.article == updated && server.revision == updated.revision && !server.deleted)
        guard case let .conflict(current?) = try await transport.send(put("a1", content, .absent, key: "k4")) else {
            Issue.record("a create over a live article must conflict")
            return
        }
        #expect(current.revision == updated.revision)

        guard case let .applied(.deleted(tombstone?), false) = try await transport.send(delete("a1", base: updated.revision, key: "k5"))
        else {
            Issue.record("the delete was not applied")
            return
        }
        #expect(tombstone.deleted && tombstone.revision > updated.revision)
        // Deleting what is already deleted reaches the goal: the 404 carries the tombstone.
        #expect(try await transport.send(delete("a1", base: updated.revision, key: "k6"))
                == .applied(.deleted(tombstone: tombstone), replayed: false))
        let restored = try #require(live(try await transport.send(put("a1", content, .absent, key: "k7"))))
        #expect(restored.revision > tombstone.revision)
    }

    @Test func refusalsThatRetryingCannotFixAreTerminal() async throws {
        let server = try TestServer { $0.maximumBodyBytes = 16 * 1024 }
        defer { server.stop() }
        let transport = server.transport(token: try server.addAccount())

        _ = try await transport.send(put("a1", content, .absent, key: "k1"))
        guard case let .rejected(reused) = try await transport.send(put("a1", ArticlePayload(title: "Other", body: ""), .absent, key: "k1"))
        else {
            Issue.record("a key reused for another body must be rejected")
            return
        }
        #expect(reused.reason == .idempotencyKeyReused && reused.status == 422 && reused.problemType == .idempotencyKeyReused)

        // More than the loopback buffers hold: libcurl is still sending when the 413 arrives.
        let big = ArticlePayload(title: "Big", body: String(repeating: "x", count: 8 * 1024 * 1024))
        guard case let .rejected(tooLarge) = try await transport.send(put("a2", big, .absent, key: "k2")) else {
            Issue.record("an oversize body must be rejected")
            return
        }
        #expect(tooLarge.reason == .tooLarge && tooLarge.status == 413)
    }

    @Test func anUnknownTokenRejectsTheAccountOnEveryRequestButHealth() async throws {
        let server = try TestServer()
        defer { server.stop() }
        _ = try server.addAccount()
        let transport = server.transport(token: "qtk_unknown")
        let write = put("a1", content, .absent, key: "k1")
        guard case .accountRejected = try await transport.send(write) else { Issue.record("send"); return }
        guard case .accountRejected = try await transport.lookUp(write) else { Issue.record("lookUp"); return }
        guard case .accountRejected = try await transport.changes(since: 0, limit: nil) else { Issue.record("changes"); return }
        guard case .accountRejected = try await transport.snapshot(after: nil, limit: nil) else { Issue.record("snapshot"); return }
        guard case let .success(health) = try await transport.health() else { Issue.record("health"); return }
        #expect(health.status == "ok" && health.protocolVersion == ProtocolVersion.current)
    }

    @Test func requestsThatBreakTheProtocolAreNotSent() async throws {
        // Nothing listens on this port: any request that left would fail as notSent.
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let transport = URLSessionTransport(configuration: .init(server: refusing.url, token: "qtk_x"))
        let nul = try await transport.send(put("a1", ArticlePayload(title: "A\u{0}B", body: ""), .absent, key: "k1"))
        #expect(nul == .rejected(RequestRejection(reason: .refusedBeforeSending, status: nil,
                                                  detail: "title must not contain U+0000", field: "title")))
        guard case .rejected = try await transport.send(put("../etc", content, .absent, key: "k1")) else { Issue.record("id"); return }
        guard case .rejected = try await transport.send(put("a1", content, .absent, key: "key with spaces")) else { Issue.record("key"); return }
        guard case .rejected = try await transport.snapshot(after: "a/b", limit: nil) else { Issue.record("after"); return }
        let injected = URLSessionTransport(configuration: .init(server: transport.configuration.server, token: "qtk_x\r\nX-Evil: 1"))
        guard case .accountRejected = try await injected.send(put("a1", content, .absent, key: "k1")) else { Issue.record("token"); return }
    }

    @Test func aServerThatIsNotThereMeansNotSent() async throws {
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let transport = URLSessionTransport(configuration: .init(server: refusing.url, token: "qtk_x"))
        await #expect {
            _ = try await transport.send(put("a1", content, .absent, key: "k1"))
        } throws: { error in
            guard case let .notSent(failure) = error as? TransportError else { return false }
            return failure.method == "PUT" && failure.path == "/v1/articles/a1"
        }
    }

    @Test func lookupsTellCompletedRunningAndNeverApplied() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let transport = server.transport(token: try server.addAccount())

        let create = put("a1", content, .absent, key: "k1")
        let answer = try await transport.send(create)
        #expect(try await transport.lookUp(create) == .completed(answer.replayed()))
        #expect(try await transport.lookUp(put("a1", content, .absent, key: "never-sent")) == .neverApplied)

        let stale = put("a1", content, .revision(999), key: "k2")
        let conflict = try await transport.send(stale)
        guard case .conflict = conflict else { Issue.record("expected a conflict, got \(conflict)"); return }
        #expect(try await transport.lookUp(stale) == .completed(conflict))

        // A request of another process holds the key: the lookup says running, a send gets 409.
        let account = try #require(try server.storage.accounts().first?.id)
        let busy = put("a2", content, .absent, key: "busy")
        let command = ArticleCommand(articleID: "a2", action: .put(content, .absent))
        let claim = OperationClaim(key: "busy", fingerprint: try command.fingerprint(), method: "PUT", articleID: "a2",
                                   leaseUntil: Date() + 600)
        #expect(try server.storage.claimOperation(claim, account: account, now: Date()) == .claimed)
        #expect(try await transport.lookUp(busy) == .running(retryAfter: nil))
        #expect(try await transport.send(busy) == .retry(RetryAdvice(status: 409, problemType: .operationInProgress, retryAfter: .seconds(1))))
        _ = try server.storage.apply(command, account: account, claim: claim, now: Date())
        guard case .completed(.applied(.live, replayed: true)) = try await transport.lookUp(busy) else {
            Issue.record("the key's write completed")
            return
        }
        // The lookup is checked against the write it asks about.
        await #expect(throws: TransportError.self) { try await transport.lookUp(self.put("a9", self.content, .absent, key: "k1")) }
    }

    @Test func theFeedPagesInOrderAndAsksForAResyncWhenLost() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let transport = server.transport(token: try server.addAccount())
        for index in 0..<5 {
            _ = try await transport.send(put("a\(index)", content, .absent, key: "k\(index)"))
        }
        var cursor: Int64 = 0
        var seen: [String] = []
        while true {
            guard case let .success(page) = try await transport.changes(since: cursor, limit: 2) else {
                Issue.record("changes")
                return
            }
            seen += page.changes.map(\.id)
            cursor = page.nextCursor
            if !page.hasMore { break }
        }
        #expect(seen == ["a0", "a1", "a2", "a3", "a4"])
        #expect(try await transport.changes(since: cursor + 100, limit: nil) == .resyncRequired)

        var after: String?
        var listed: [String] = []
        repeat {
            guard case let .success(page) = try await transport.snapshot(after: after, limit: 2) else {
                Issue.record("snapshot")
                return
            }
            listed += page.articles.map(\.id)
            after = page.hasMore ? page.articles.last?.id : nil
        } while after != nil
        #expect(listed == ["a0", "a1", "a2", "a3", "a4"])
    }

    @Test func theRateLimitAsksToRetryAfterItsDelay() async throws {
        let server = try TestServer { $0.rateLimit = 1 }
        defer { server.stop() }
        let transport = server.transport(token: try server.addAccount())
        var advice: RetryAdvice?
        for _ in 0..<10 where advice == nil {
            if case let .retry(given) = try await transport.changes(since: 0, limit: nil) { advice = given }
        }
        let limited = try #require(advice)
        #expect(limited.status == 429 && limited.problemType == .rateLimited)
        guard case let .seconds(seconds)? = limited.retryAfter else {
            Issue.record("429 without Retry-After")
            return
        }
        #expect(seconds >= 1)
    }
}

extension WriteAnswer {
    /// The same answer as a replay of the idempotency key gives it.
    func replayed() -> WriteAnswer {
        guard case let .applied(version, _) = self else { return self }
        return .applied(version, replayed: true)
    }
}

/// A loopback port nothing listens on: bound but not listening, so connections are refused and
/// no other test's server can take the port while the test runs. `close()` frees it.
struct RefusingPort {
    private let socket: LoopbackSocket

    init() throws { socket = try LoopbackSocket() }

    var port: UInt16 { socket.port }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    func close() { socket.close() }
}
