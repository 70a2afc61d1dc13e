import Foundation
@testable import SyncServer
import SyncProtocol
import Testing

/// What a client sees when storage fails: 500 for what retrying will not fix, 503 otherwise.
@Suite struct StorageFailureTests {
    @Test func aStoredValueTheServerCannotReadGets500AndALogLine() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = server.client(try server.addAccount("alice"))
        try client.create("a", ArticlePayload(title: "Secret title", body: "B", tags: ["x"]))
        _ = try #require(server.storage as? any SQLBackedStorage).withConnection(for: .writer) { connection in
            try connection.execute("UPDATE revisions SET tags = 'not json'")
        }
        let failed = try client.send("GET", SyncPath.article("a"))
        #expect(failed.status == 500 && failed.problem?.type == .internalError)
        let log = server.log.joined(separator: "\n")
        #expect(log.contains("error: GET /v1/articles/{id}: unreadable revisions.tags"))
        #expect(!log.contains("Secret title"))
    }

    @Test func aStorageThatStopsAnsweringGets503() throws {
        let server = try TestServer()
        defer { server.stop() }
        server.storage.close()
        let health = try server.client(nil).send("GET", SyncPath.health)
        #expect(health.status == 503)
        #expect(try health.decode(HealthStatus.self).status == "unavailable")
        let answer = try server.client("qtk_any").send("GET", SyncPath.changes)
        #expect(answer.status == 503 && answer.problem?.type == .unavailable && answer.header(SyncHeader.retryAfter) == "5")
    }
}
