import Foundation
@testable import SyncServer
import SyncProtocol
import Testing

/// Oversize, slow, cut and too frequent requests over raw sockets.
@Suite struct LimitTests {
    func head(_ method: String, _ path: String, token: String?, _ extra: [String]) -> [UInt8] {
        var lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1"]
        if let token { lines.append("Authorization: Bearer \(token)") }
        return Array((lines + extra).joined(separator: "\r\n").utf8) + Array("\r\n\r\n".utf8)
    }

    @Test func oversizeBodiesGet413() throws {
        let server = try TestServer { $0.maximumBodyBytes = 8 * 1024 }
        defer { server.stop() }
        let token = try server.addAccount("alice")
        let client = server.client(token)
        let big = Array(#"{"title":"T","body":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: 20_000) + Array(#""}"#.utf8)
        let headers = ["Content-Type: application/json", "If-None-Match: *"]

        // A declared length is refused before the body is read.
        let declared = try #require(try client.raw(head("PUT", "/v1/articles/a", token: token, headers + ["Content-Length: 100000000"])))
        #expect(declared.status == 413 && declared.problem?.type == .payloadTooLarge)
        let sent = try #require(try client.raw(head("PUT", "/v1/articles/a", token: token, headers + ["Content-Length: \(big.count)"]) + big))
        #expect(sent.status == 413)

        // A chunked body is counted as it arrives.
        let chunked = Array(String(big.count, radix: 16).utf8) + [13, 10] + big + Array("\r\n0\r\n\r\n".utf8)
        let streamed = try #require(try client.raw(head("PUT", "/v1/articles/a", token: token, headers + ["Transfer-Encoding: chunked"]) + chunked))
        #expect(streamed.status == 413 && streamed.problem?.type == .payloadTooLarge)

        let fits = ArticlePayload(title: "T", body: String(repeating: "x", count: 7000))
        #expect(try client.create("a", fits).status == 201)
        #expect(try client.allChanges().count == 1)
    }

    /// A client that writes its whole body before it reads (as libcurl does, without
    /// `Expect: 100-continue`) still reads the 413 that was sent after the headers: the server
    /// reads and throws away the rest instead of resetting the connection (`LingeringClose`).
    /// Without that the client's writes fail with a broken pipe, and a sync client would send the
    /// same oversize article again and again.
    @Test func aClientStillSendingItsOversizeBodyReadsThe413() throws {
        let server = try TestServer { $0.maximumBodyBytes = 8 * 1024 }
        defer { server.stop() }
        let token = try server.addAccount("alice")
        // Far more than the loopback's socket buffers hold, so that the writes go on after the answer.
        let body = Array(#"{"title":"T","body":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: 32 * 1024 * 1024) + Array(#""}"#.utf8)
        let headers = ["Content-Type: application/json", "If-None-Match: *", "Content-Length: \(body.count)"]
        let answer = try #require(try server.client(token).raw(head("PUT", "/v1/articles/a", token: token, headers) + body))
        #expect(answer.status == 413 && answer.problem?.type == .payloadTooLarge)
    }

    @Test func oversizeHeadersGet431() throws {
        let server = try TestServer { $0.maximumHeaderBytes = 4 * 1024 }
        defer { server.stop() }
        let client = server.client(try server.addAccount("alice"))
        let over = try #require(try client.raw(head("GET", "/v1/changes", token: nil, ["X-Padding: " + String(repeating: "p", count: 6000)])))
        #expect(over.status == 431 && over.problem?.type == .headersTooLarge)
        // Far beyond the limit libmicrohttpd answers by itself, before the server sees the request.
        let huge = try #require(try client.raw(head("GET", "/v1/changes", token: nil, ["X-Padding: " + String(repeating: "p", count: 200_000)])))
        #expect(huge.status == 431)
        #expect(try client.send("GET", SyncPath.changes).status == 200)
    }

    @Test func aTokenOverItsRateGets429WithRetryAfter() throws {
        // One request per 50 seconds: a burst of one, and a wait no test run comes near.
        let server = try TestServer { $0.rateLimit = 0.02 }
        defer { server.stop() }
        let alice = server.client(try server.addAccount("alice"))
        #expect(try alice.send("GET", SyncPath.changes).status == 200)
        let limited = try alice.send("GET", SyncPath.changes)
        #expect(limited.status == 429 && limited.problem?.type == .rateLimited)
        let retryAfter = try #require(limited.header(SyncHeader.retryAfter).flatMap(Int.init))
        #expect((40...50).contains(retryAfter))
        #expect(try server.client(try server.addAccount("bob")).send("GET", SyncPath.changes).status == 200)
        #expect(try server.client(nil).send("GET", SyncPath.health).status == 200)
    }

    @Test func slowAndCutConnectionsAreDroppedWithoutHarm() throws {
        let server = try TestServer { $0.clientTimeoutSeconds = 1 }
        defer { server.stop() }
        let token = try server.addAccount("alice")
        let client = server.client(token)

        // Headers that never finish: the server closes the connection after the timeout.
        #expect(try client.raw(Array("GET /v1/changes HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8)) == nil)

        // A body that stops halfway: closed, and nothing is written.
        let body = Array(#"{"title":"T","body":"half"}"#.utf8)
        let start = head("PUT", "/v1/articles/cut", token: token,
                         ["Content-Type: application/json", "If-None-Match: *", "Content-Length: \(body.count)"])
        #expect(try client.raw(start + body.prefix(10)) == nil)
        let cut = server.client(token)
        try cut.begin(start + body.prefix(10))
        cut.disconnect()

        #expect(try client.send("GET", SyncPath.article("cut")).status == 404)
        #expect(try client.create("after", ArticlePayload(title: "T", body: "B")).status == 201)
    }
}
