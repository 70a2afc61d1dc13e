import Foundation
import Glibc
@testable import SyncServer
import SyncProtocol
import Testing

/// Requests an attacker or a broken client sends, over raw sockets: each must be refused without
/// harm to the data or to other clients.
@Suite struct HostileRequestTests {
    /// A request head with `Host` and the token, and `extra` header lines.
    func head(_ method: String, _ path: String, token: String?, _ extra: [String], host: Bool = true,
              version: String = "HTTP/1.1") -> [UInt8] {
        var lines = ["\(method) \(path) \(version)"]
        if host { lines.append("Host: 127.0.0.1") }
        if let token { lines.append("Authorization: Bearer \(token)") }
        return Array((lines + extra).joined(separator: "\r\n").utf8) + Array("\r\n\r\n".utf8)
    }

    @Test func ambiguousBodyLengthsGet400AndCloseSoNoHiddenRequestIsAnswered() throws {
        let server = try TestServer()
        defer { server.stop() }
        let token = try server.addAccount("alice")
        let client = server.client(token)
        let body = Array(#"{"title":"T","body":"B"}"#.utf8)
        // A second request hidden where a proxy would see the end of the body.
        let hidden = head("PUT", "/v1/articles/smuggled", token: token,
                          ["Content-Type: application/json", "If-None-Match: *", "Content-Length: \(body.count)"]) + body
        let json = ["Content-Type: application/json", "If-None-Match: *"]

        for framing in [["Content-Length: \(body.count)", "Content-Length: \(body.count + hidden.count)"],
                        ["Content-Length: \(body.count)", "Content-Length: \(body.count)"],
                        ["Content-Length: \(body.count)", "Transfer-Encoding: chunked"],
                        ["Transfer-Encoding: chunked", "Transfer-Encoding: chunked"],
                        ["Transfer-Encoding: gzip, chunked"]] {
            let request = head("PUT", "/v1/articles/a", token: token, json + framing) + body + hidden
            let answer = try #require(try client.raw(request), "\(framing)")
            #expect(answer.status == 400 && answer.problem?.type == .invalidField, "\(framing)")
            #expect(["Content-Length", "Transfer-Encoding"].contains(answer.problem?.field ?? ""), "\(framing)")
            #expect(answer.header("connection")?.lowercased() == "close", "\(framing)")
        }
        // A length that is not a plain number libmicrohttpd refuses by itself (with its own page).
        let signed = head("PUT", "/v1/articles/a", token: token, json + ["Content-Length: +\(body.count)"]) + body + hidden
        #expect(try client.raw(signed)?.status == 400)
        let chunkedWithHTTP10 = head("PUT", "/v1/articles/a", token: token, json + ["Transfer-Encoding: chunked"],
                                     version: "HTTP/1.0")
        #expect(try client.raw(chunkedWithHTTP10)?.status == 400)
        #expect(try client.send("GET", SyncPath.article("a")).status == 404)
        #expect(try client.send("GET", SyncPath.article("smuggled")).status == 404)
        #expect(try client.allChanges().isEmpty)
    }

    @Test func http11NeedsExactlyOneHost() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = server.client(nil)
        let missing = try #require(try client.raw(head("GET", SyncPath.health, token: nil, [], host: false)))
        #expect(missing.status == 400 && missing.problem?.field == "Host")
        let twice = try #require(try client.raw(head("GET", SyncPath.health, token: nil, ["Host: other.example"])))
        #expect(twice.status == 400 && twice.problem?.field == "Host")
        // HTTP/1.0 predates Host.
        #expect(try client.raw(head("GET", SyncPath.health, token: nil, [], host: false, version: "HTTP/1.0"))?.status == 200)
        #expect(try client.raw(head("GET", SyncPath.health, token: nil, []))?.status == 200)
    }

    @Test func headAnswersLikeGetWithoutABodyAndHealthRefusesOtherMethods() throws {
        let server = try TestServer()
        defer { server.stop() }
        let token = try server.addAccount("alice")
        let client = server.client(token)
        let created = try client.create("a1", ArticlePayload(title: "T", body: "B"))

        let get = try client.send("GET", SyncPath.article("a1"))
        let head = try client.send("HEAD", SyncPath.article("a1"))
        #expect(head.status == 200 && head.body.isEmpty && head.revision == created.revision)
        #expect(head.header("content-length") == String(get.body.count))
        // The connection is still in step: the next answer is the next request's.
        #expect(try client.send("HEAD", SyncPath.changes).status == 200)
        #expect(try client.send("GET", SyncPath.changes).decode(ChangesPage.self).changes.count == 1)
        #expect(try server.client(nil).send("HEAD", SyncPath.health).status == 200)
        #expect(try server.client(nil).send("HEAD", SyncPath.changes).status == 401)

        // The health check is public, so its 405 needs no token; neither does any route's.
        for method in ["POST", "PUT", "DELETE"] {
            let refused = try server.client(nil).send(method, SyncPath.health, body: [])
            #expect(refused.status == 405 && refused.header(SyncHeader.allow) == "GET, HEAD", "\(method)")
        }
        #expect(try server.client(nil).send("POST", SyncPath.changes, body: []).status == 405)
    }

    @Test func articleIDsAreCheckedAfterDecodingEachSegmentAlone() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = server.client(try server.addAccount("alice"))
        #expect(try client.create("abc", ArticlePayload(title: "Original", body: "B")).status == 201)
        #expect(try client.create("a", ArticlePayload(title: "A", body: "B")).status == 201)

        // %00 would cut the ID to "abc"; %2F would make "a/b" two segments; dot segments are paths.
        for id in ["abc%00anything", "abc%00", "a%2Fb", "a%2fb", "..", ".", "%2E%2E", "abc%", "abc%zz", "a%20b"] {
            let read = try client.send("GET", "/v1/articles/\(id)")
            #expect(read.status == 400 && read.problem?.field == "id", "GET \(id)")
            let write = try client.send("PUT", "/v1/articles/\(id)", headers: [SyncHeader.ifMatch: "\"1\""],
                                        json: ArticlePayload(title: "Overwritten", body: ""))
            #expect(write.status == 400 && write.problem?.field == "id", "PUT \(id)")
        }
        #expect(try client.send("GET", "/v1/operations/k%00x").problem?.field == "key")
        // Escaped unreserved characters are the same characters.
        #expect(try client.send("GET", "/v1/articles/%61bc").decode(Article.self).content.title == "Original")
        #expect(try client.send("GET", SyncPath.article("abc")).decode(Article.self).content.title == "Original")
        #expect(try client.allChanges().count == 2)
    }

    @Test func ifMatchComparesEntityTagsAsStrings() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = server.client(try server.addAccount("alice"))
        let first = try #require(try client.create("a1", ArticlePayload(title: "First", body: "B")).revision)
        let tags = ["\"0\(first)\"", "W/\"\(first)\"", "\"draft\"", "\"\"", "\"999999\""]
        for tag in tags {
            let put = try client.send("PUT", SyncPath.article("a1"), headers: [SyncHeader.ifMatch: tag],
                                      json: ArticlePayload(title: "Changed", body: ""))
            #expect(put.status == 412 && put.problem?.type == .staleRevision && put.problem?.current?.revision == first, "\(tag)")
            let delete = try client.send("DELETE", SyncPath.article("a1"), headers: [SyncHeader.ifMatch: tag])
            #expect(delete.status == 412, "\(tag)")
        }
        #expect(try client.send("DELETE", SyncPath.article("never"), headers: [SyncHeader.ifMatch: "\"x\""]).status == 404)
        #expect(try client.send("GET", SyncPath.article("a1")).decode(Article.self).content.title == "First")
        #expect(try client.update("a1", ArticlePayload(title: "Second", body: ""), base: first).status == 200)
    }

    @Test func anIdempotencyKeyMayBeAStructuredFieldString() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = server.client(try server.addAccount("alice"))
        let content = ArticlePayload(title: "Keyed", body: "B")
        let quoted = try client.send("PUT", SyncPath.article("a1"),
                                     headers: [SyncHeader.ifNoneMatch: "*", SyncHeader.idempotencyKey: "\"k-1\""], json: content)
        #expect(quoted.status == 201)
        let bare = try client.create("a1", content, key: "k-1")
        #expect(bare.status == 201 && bare.header(SyncHeader.idempotentReplayed) == "true" && bare.revision == quoted.revision)
        #expect(try client.send("GET", SyncPath.operation("k-1")).decode(OperationOutcome.self).status == 201)
        for malformed in ["\"k-1", "\"k 1\"", "\"\"", "\"k-1\";x=1"] {
            let refused = try client.send("PUT", SyncPath.article("a2"),
                                          headers: [SyncHeader.ifNoneMatch: "*", SyncHeader.idempotencyKey: malformed], json: content)
            #expect(refused.status == 400 && refused.problem?.field == SyncHeader.idempotencyKey, "\(malformed)")
        }
    }

    @Test func whatAClientSendsCannotWriteControlCharactersIntoTheLog() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = server.client(nil)
        // A method with a terminal escape sequence (clear screen, red), and a path with one.
        _ = try client.raw(head("G\u{1B}[2J\u{1B}[31mET", SyncPath.health, token: nil, []))
        _ = try client.raw(head("GET", "/v1/\u{1B}[2J", token: nil, []))
        let log = server.log.joined(separator: "\n")
        #expect(!log.unicodeScalars.contains { $0 != "\n" && $0.properties.generalCategory == .control })
        #expect(log.contains("G\\u{1B}[2J\\u{1B}[31mET"))
    }

    @Test func oneAddressCannotTakeEveryConnection() throws {
        let server = try TestServer { $0.maximumConnectionsPerAddress = 4 }
        defer { server.stop() }
        let token = try server.addAccount("alice")
        let held = (0..<4).map { _ in server.client(token) }
        for client in held { #expect(try client.send("GET", SyncPath.changes).status == 200) }

        // A fifth from the same address is closed at once, without an answer.
        let fifth = server.client(token)
        try fifth.begin([])
        #expect(try fifth.awaitClose().isEmpty)
        // Another address is served, and so are the held connections.
        #expect(try LoopbackClient(port: server.port, token: token, from: "127.0.0.2").send("GET", SyncPath.changes).status == 200)
        for client in held { #expect(try client.send("GET", SyncPath.changes).status == 200) }
    }

    @Test func tricklingBytesDoesNotKeepAConnectionOpen() throws {
        let server = try TestServer { $0.clientTimeoutSeconds = 1 }
        defer { server.stop() }
        let token = try server.addAccount("alice")
        let request = head("GET", SyncPath.changes, token: token, [])
        let trickler = server.client(token)
        try trickler.begin([])
        // One byte every 0.2 s never leaves the connection silent for libmicrohttpd's timeout of
        // 1 s, and the whole request would take about 20 s.
        var sent = 0
        var cut = false
        while sent < request.count, !cut {
            do {
                try trickler.write(more: [request[sent]])
                sent += 1
                Thread.sleep(forTimeInterval: 0.2)
            } catch {
                cut = true
            }
        }
        #expect(cut && sent < request.count)
        #expect(try server.client(token).send("GET", SyncPath.changes).status == 200)
    }
}
