import Foundation
import Glibc
@testable import SyncServer
import SyncProtocol
import Testing

/// Graceful shutdown: requests that started finish, new ones are refused, nothing answered is lost.
@Suite struct ShutdownTests {
    @Test func requestsInFlightFinishAndNewOnesAreRefused() throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        var configuration = ServerConfiguration()
        configuration.listen = ListenAddress(host: "127.0.0.1", port: 0)
        configuration.threads = 2
        configuration.rateLimit = nil
        let storage = try database.open(serving: true)
        let token = AccountToken.generate()
        _ = try storage.addAccount(name: "alice", tokenHash: token.hash, at: Date())
        let server = try QuireServer(configuration: configuration, storage: storage, log: .discarding)
        let port = server.address.port

        let idle = LoopbackClient(port: port, token: token.text)
        #expect(try idle.send("GET", SyncPath.changes).status == 200)

        let body = Array(#"{"title":"In flight","body":"B"}"#.utf8)
        let inFlight = LoopbackClient(port: port)
        try inFlight.begin(Array(("PUT /v1/articles/a HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token.text)\r\n"
            + "Content-Type: application/json\r\nIf-None-Match: *\r\nContent-Length: \(body.count)\r\n\r\n").utf8) + body.prefix(5))
        // Shut down only once the server has read the request's headers: a request it has not
        // started yet is not in flight. (Another connection's answer does not prove that: a
        // different worker thread may read it.)
        for _ in 0..<1000 where server.requestsInFlight == 0 { Thread.sleep(forTimeInterval: 0.01) }
        #expect(server.requestsInFlight == 1)

        let stopped = DispatchSemaphore(value: 0)
        Thread {
            server.shutdown()
            stopped.signal()
        }.start()
        var refused = false
        for _ in 0..<200 where !refused {
            do {
                _ = try LoopbackClient(port: port).raw(Array("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
                Thread.sleep(forTimeInterval: 0.01)
            } catch {
                refused = true
            }
        }
        #expect(refused, "the listening socket stayed open during shutdown")

        let late = try idle.send("GET", SyncPath.changes)
        #expect(late.status == 503 && late.problem?.type == .unavailable && late.header(SyncHeader.retryAfter) != nil)

        let finished = try inFlight.finish(Array(body.dropFirst(5)))
        #expect(finished.status == 201)
        stopped.wait()

        let reopened = try database.open()
        defer { reopened.close() }
        let account = try #require(try reopened.account(tokenHash: token.hash))
        #expect(try reopened.article("a", account: account)?.article?.content.title == "In flight")
    }
}
