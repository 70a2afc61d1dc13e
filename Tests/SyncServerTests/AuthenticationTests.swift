import Foundation
@testable import SyncServer
import SyncProtocol
import Testing

/// Bearer tokens, and what one account can learn about another: nothing.
@Suite struct AuthenticationTests {
    let content = ArticlePayload(title: "Private", body: "Alice's words")

    @Test func everyRouteButHealthNeedsAValidToken() throws {
        let server = try TestServer()
        defer { server.stop() }
        let token = try server.addAccount("alice")
        let anonymous = server.client(nil)
        for path in [SyncPath.changes, SyncPath.articles, SyncPath.article("a"), SyncPath.operation("k"), "/v1/nothing"] {
            let response = try anonymous.send("GET", path)
            #expect(response.status == 401 && response.problem?.type == .unauthorized)
            #expect(response.header(SyncHeader.wwwAuthenticate) == "Bearer realm=\"quire\"")
        }
        for header in ["Bearer qtk_wrong", "Basic \(token)", "Bearer", "bearer  "] {
            let response = try anonymous.send("GET", SyncPath.changes, headers: ["Authorization": header])
            #expect(response.status == 401)
        }
        let wrong = try server.client("qtk_notatoken").send("GET", SyncPath.changes)
        #expect(wrong.header(SyncHeader.wwwAuthenticate) == "Bearer realm=\"quire\", error=\"invalid_token\"")
        #expect(try server.client(nil).create("a", content).status == 401)
        #expect(try server.client(token).send("GET", SyncPath.changes).status == 200)
        #expect(try server.client(token.uppercased()).send("GET", SyncPath.changes).status == 401)

        let health = try anonymous.send("GET", SyncPath.health)
        #expect(health.status == 200)
        #expect(try health.decode(HealthStatus.self) == HealthStatus(status: "ok", protocolVersion: ProtocolVersion.current, maximumBodyBytes: 4 * 1024 * 1024,
                                                                    maximumPageSize: 1000, maximumBlobBytes: 25 * 1024 * 1024))
    }

    @Test func aRevokedTokenStopsWorkingAtOnce() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = server.client(try server.addAccount("alice"))
        #expect(try client.create("a", content).status == 201)
        #expect(try server.storage.revokeAccount(name: "alice", at: Date()))
        #expect(try client.send("GET", SyncPath.changes).status == 401)
    }

    @Test func oneAccountCannotReadOverwriteEnumerateOrDetectAnothersData() throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = server.client(try server.addAccount("alice"))
        let bob = server.client(try server.addAccount("bob"))
        let created = try alice.create("alice-1", content, key: "alice-key")
        let revision = try #require(created.revision)
        for index in 0..<3 { try alice.create("alice-more-\(index)", content) }
        let aliceHead = try alice.allChanges().last!.cursor

        // By ID: Bob's answers are the ones for an article that never existed.
        let read = try bob.send("GET", SyncPath.article("alice-1"))
        let never = try bob.send("GET", SyncPath.article("never-1"))
        #expect(read.status == 404 && read.problem?.current == nil)
        #expect(read.text.replacingOccurrences(of: "alice-1", with: "never-1") == never.text)
        #expect(try bob.update("alice-1", content, base: revision).problem?.current == nil)
        #expect(try bob.delete("alice-1", base: revision).status == 404)

        // By idempotency key: Bob's key space is his own.
        #expect(try bob.send("GET", SyncPath.operation("alice-key")).status == 404)
        let bobWrite = try bob.create("bob-1", ArticlePayload(title: "Bob", body: "B"), key: "alice-key")
        #expect(bobWrite.status == 201 && bobWrite.header(SyncHeader.idempotentReplayed) == nil)

        // By cursor: Alice's cursors tell Bob nothing, and list only his own changes.
        #expect(try bob.changes(since: aliceHead).status == 410)
        let bobChanges = try bob.allChanges()
        #expect(bobChanges.map(\.id) == ["bob-1"])
        let snapshot = try bob.send("GET", SyncPath.articles).decode(ArticlesPage.self)
        #expect(snapshot.articles.map(\.id) == ["bob-1"])

        // An article with Alice's ID is Bob's own, and Alice's stays untouched.
        #expect(try bob.create("alice-1", ArticlePayload(title: "Bob's", body: "B")).status == 201)
        #expect(try alice.send("GET", SyncPath.article("alice-1")).decode(Article.self).content == content)
        #expect(try alice.allChanges().count == 4)
    }
}
