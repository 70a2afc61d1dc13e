import Foundation
@testable import SyncServer
import SyncProtocol
import Testing

@Suite struct LogTests {
    @Test func logsHoldNeitherArticleTextNorTokens() throws {
        let server = try TestServer()
        defer { server.stop() }
        let token = try server.addAccount("alice")
        let client = server.client(token)
        let secret = "Confidential-Plot-Twist"
        let created = try client.create("a1", ArticlePayload(title: secret, body: "\(secret) body", tags: [secret]), key: "k1")
        try client.update("a1", ArticlePayload(title: secret, body: "x"), base: 1_000_000)
        try client.create("a1", ArticlePayload(title: secret, body: "other"), key: "k1")
        try client.send("PUT", SyncPath.article("a2"), headers: [SyncHeader.ifNoneMatch: "*", "Content-Type": "application/json"],
                        body: Array("{\"title\": \"\(secret)\", \"bad\": 1}".utf8))
        try client.send("GET", "/v1/articles/\(secret)%20text")
        try client.send("GET", SyncPath.article("a1"))
        try client.delete("a1", base: created.revision!)
        try server.client(token + "x").send("GET", SyncPath.changes)

        let log = server.log.joined(separator: "\n")
        #expect(server.log.count >= 8)
        #expect(log.contains("PUT /v1/articles/a1 201"))
        #expect(log.contains("(path withheld)"))
        #expect(!log.contains(secret))
        #expect(!log.contains(token))
        #expect(!log.contains(String(token.dropFirst(4).prefix(12))))
    }
}
