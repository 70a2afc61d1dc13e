import Foundation
import Glibc
import QuireTestSupport
@testable import SyncServer
import SyncProtocol
import Testing

/// Graceful shutdown, as `data/sync-api.yaml` promises it ("Shutdown"): requests that started
/// finish, idle connections close at once, the port refuses new ones, and a request that was not
/// answered was not applied.
@Suite struct ShutdownTests {
    @Test func requestsInFlightFinishIdleConnectionsCloseAndNothingUnansweredIsApplied() throws {
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

        // Two kept-alive connections, each after one answered request.
        let idle = LoopbackClient(port: port, token: token.text)
        #expect(try idle.send("GET", SyncPath.changes).status == 200)
        let racing = LoopbackClient(port: port, token: token.text)
        #expect(try racing.send("GET", SyncPath.changes).status == 200)
        // The client reads an answer before the server notes the end of its exchange.
        try #require(server.awaitRequestsInFlight(0...0))

        // A write whose headers the server has read, with half its body sent, when shutdown begins.
        let body = Array(#"{"title":"In flight","body":"B"}"#.utf8)
        let inFlight = LoopbackClient(port: port)
        try inFlight.begin(Self.put("a", token: token.text, body: body) + body.prefix(5))
        try #require(server.awaitRequestsInFlight(1...1))

        let stopped = DispatchSemaphore(value: 0)
        Thread {
            server.shutdown()
            stopped.signal()
        }.start()

        // A write on an idle connection while shutdown begins. Whichever thread wins, the answer
        // tells the truth: 201 if the server read it before shutdown began, 503 if it read it
        // after, or a close without an answer; only the 201 was applied.
        let raced: TestResponse?
        do {
            raced = try racing.send("PUT", SyncPath.article("raced"), headers: [SyncHeader.ifNoneMatch: "*"],
                                    json: ArticlePayload(title: "Raced", body: ""))
        } catch LoopbackError.closed(let received) where received.isEmpty {
            raced = nil
        } catch LoopbackError.system(_, let code) where code == ECONNRESET || code == EPIPE {
            raced = nil
        }
        if let raced {
            #expect(raced.status == 201 || raced.status == 503, "\(raced.status) \(raced.text)")
            if raced.status == 503 {
                #expect(raced.problem?.type == .unavailable && raced.header(SyncHeader.retryAfter) != nil)
                #expect(raced.header("connection")?.lowercased() == "close")
            }
        }

        // The idle connection is closed by the server without a word, and by then the port
        // refuses new connections.
        #expect(try idle.awaitClose().isEmpty)
        #expect(try !LoopbackClient.connects(port: port))

        // The write in flight is answered, and its connection closes after the answer.
        let finished = try inFlight.finish(Array(body.dropFirst(5)))
        #expect(finished.status == 201)
        #expect(finished.header("connection")?.lowercased() == "close")
        #expect(try inFlight.awaitClose().isEmpty)
        stopped.wait()

        let reopened = try database.open()
        defer { reopened.close() }
        let account = try #require(try reopened.account(tokenHash: token.hash))
        #expect(try reopened.article("a", account: account)?.article?.content.title == "In flight")
        let racedApplied = try reopened.article("raced", account: account) != nil
        #expect(racedApplied == (raced?.status == 201))
    }

    /// A second shutdown (a signal handler and a `defer` may both ask) closes nothing: the number
    /// of the listening socket may belong to a file the process opened since.
    @Test func aSecondShutdownLeavesWhatReusedTheListenersNumberOpen() throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        let number = ReservedDescriptor.number()
        var configuration = ServerConfiguration()
        configuration.listenSocket = try LoopbackSocket(listeningWithBacklog: 16).moved(to: number).descriptor
        configuration.threads = 1
        let server = try QuireServer(configuration: configuration, storage: try database.open(serving: true), log: .discarding)
        server.shutdown()
        #expect(!ReservedDescriptor.isOpen(number), "the first shutdown closes the listening socket")

        let file = try ReservedDescriptor.openFile(on: number)
        defer { close(file) }
        server.shutdown()
        #expect(ReservedDescriptor.isOpen(file))
    }

    /// The head of a `PUT` that creates `id`, for a body of `body.count` bytes sent separately.
    private static func put(_ id: String, token: String, body: [UInt8]) -> [UInt8] {
        Array(("PUT \(SyncPath.article(id)) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\nIf-None-Match: *\r\nContent-Length: \(body.count)\r\n\r\n").utf8)
    }
}
