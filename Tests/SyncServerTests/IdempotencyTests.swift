import Foundation
@testable import SyncServer
import SyncProtocol
import Testing

/// Idempotency keys over loopback: replays, 422, 409, and the stored outcome.
@Suite struct IdempotencyTests {
    let content = ArticlePayload(title: "Notes", body: "Words")

    func withServer(_ body: (TestServer, LoopbackClient) throws -> Void) throws {
        let server = try TestServer()
        defer { server.stop() }
        try body(server, server.client(try server.addAccount("alice")))
    }

    @Test func aReplayReturnsTheStoredAnswerAndWritesNothing() throws {
        try withServer { _, client in
            let first = try client.create("a1", content, key: "op-1")
            #expect(first.status == 201 && first.header(SyncHeader.idempotentReplayed) == nil)
            let replay = try client.create("a1", content, key: "op-1")
            #expect(replay.status == 201)
            #expect(replay.header(SyncHeader.idempotentReplayed) == "true")
            #expect(replay.body == first.body && replay.revision == first.revision)
            #expect(replay.header(SyncHeader.location) == "/v1/articles/a1")

            let update = try client.update("a1", ArticlePayload(title: "Notes", body: "More"), base: first.revision!, key: "op-2")
            #expect(try client.update("a1", ArticlePayload(title: "Notes", body: "More"), base: first.revision!, key: "op-2").body == update.body)
            let delete = try client.delete("a1", base: update.revision!, key: "op-3")
            let deleteReplay = try client.delete("a1", base: update.revision!, key: "op-3")
            #expect(deleteReplay.status == 200 && deleteReplay.body == delete.body && deleteReplay.revision == delete.revision)
            #expect(try client.allChanges().count == 3)
        }
    }

    @Test func anErrorAnswerIsStoredAndReplayedToo() throws {
        try withServer { _, client in
            let first = try #require(try client.create("a1", content).revision)
            _ = try client.update("a1", ArticlePayload(title: "Theirs", body: "B"), base: first)
            let stale = try client.update("a1", content, base: first, key: "late")
            #expect(stale.status == 412)
            let replay = try client.update("a1", content, base: first, key: "late")
            #expect(replay.status == 412 && replay.body == stale.body && replay.header(SyncHeader.idempotentReplayed) == "true")
        }
    }

    @Test func aKeyReusedForAnotherRequestGets422() throws {
        try withServer { _, client in
            #expect(try client.create("a1", content, key: "k").status == 201)
            let otherBody = try client.create("a1", ArticlePayload(title: "Other", body: "B"), key: "k")
            #expect(otherBody.status == 422 && otherBody.problem?.type == .idempotencyKeyReused)
            #expect(try client.create("a2", content, key: "k").status == 422)
            #expect(try client.update("a1", content, base: 1, key: "k").status == 422)
            #expect(try client.delete("a1", base: 1, key: "k").status == 422)
            let respelled = try client.send("PUT", SyncPath.article("a1"),
                                            headers: [SyncHeader.ifNoneMatch: "*", SyncHeader.idempotencyKey: "k", "Content-Type": "application/json"],
                                            body: Array(#"{ "body" : "Words", "title" : "Notes" }"#.utf8))
            #expect(respelled.status == 201 && respelled.header(SyncHeader.idempotentReplayed) == "true")
        }
    }

    @Test func aKeyWhoseFirstRequestIsRunningGets409() throws {
        try withServer { server, client in
            let account = try #require(try server.storage.accounts().first?.id)
            let command = ArticleCommand(articleID: "a1", action: .put(content, .absent))
            let running = OperationClaim(key: "busy", fingerprint: try command.fingerprint(), method: "PUT", articleID: "a1",
                                         leaseUntil: Date() + 600)
            #expect(try server.storage.claimOperation(running, account: account, now: Date()) == .claimed)

            let conflict = try client.create("a1", content, key: "busy")
            #expect(conflict.status == 409 && conflict.problem?.type == .operationInProgress)
            #expect(conflict.header(SyncHeader.retryAfter) == "1")
            #expect(try client.send("GET", SyncPath.article("a1")).status == 404)
            let outcome = try client.send("GET", SyncPath.operation("busy")).decode(OperationOutcome.self)
            #expect(outcome.state == .running && outcome.status == nil && outcome.articleID == "a1")

            #expect(try server.storage.apply(command, account: account, claim: running, now: Date())?.status == 201)
            let replay = try client.create("a1", content, key: "busy")
            #expect(replay.status == 201 && replay.header(SyncHeader.idempotentReplayed) == "true")
        }
    }

    @Test func concurrentRequestsWithOneKeyApplyOnce() throws {
        try withServer { server, client in
            let token = try #require(client.token)
            let answers = LockedList<TestResponse>()
            let errors = LockedList<any Error>()
            let group = DispatchGroup()
            for _ in 0..<12 {
                group.enter()
                Thread {
                    defer { group.leave() }
                    do {
                        answers.append(try server.client(token).create("a1", content, key: "same"))
                    } catch {
                        errors.append(error)
                    }
                }.start()
            }
            group.wait()
            #expect(errors.all.isEmpty)
            let statuses = answers.all.map(\.status)
            #expect(statuses.allSatisfy { $0 == 201 || $0 == 409 })
            #expect(answers.all.filter { $0.status == 201 && $0.header(SyncHeader.idempotentReplayed) == nil }.count == 1)
            #expect(try client.allChanges().count == 1)
        }
    }

    @Test func theStoredOutcomeAnswersALostResponse() throws {
        try withServer { _, client in
            let created = try client.create("a1", content, key: "create-1")
            let outcome = try client.send("GET", SyncPath.operation("create-1"))
            #expect(outcome.status == 200)
            let decoded = try outcome.decode(OperationOutcome.self)
            #expect(decoded.state == .completed && decoded.status == 201 && decoded.method == "PUT")
            #expect(decoded.eTag == created.header(SyncHeader.eTag))
            #expect(try decoded.article == created.decode(Article.self))

            _ = try client.update("a1", content, base: 999, key: "stale-1")
            let failed = try client.send("GET", SyncPath.operation("stale-1")).decode(OperationOutcome.self)
            #expect(failed.status == 412 && failed.problem?.type == .staleRevision && failed.article == nil)

            _ = try client.delete("a1", base: created.revision!, key: "delete-1")
            let deleted = try client.send("GET", SyncPath.operation("delete-1")).decode(OperationOutcome.self)
            #expect(deleted.method == "DELETE" && deleted.change?.deleted == true)

            let unknown = try client.send("GET", SyncPath.operation("never-sent"))
            #expect(unknown.status == 404 && unknown.problem?.type == .notFound)
            #expect(try client.send("GET", "/v1/operations/bad%20key").problem?.field == "key")
        }
    }
}
