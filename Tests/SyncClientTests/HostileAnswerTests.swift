import Foundation
import SyncClient
import SyncProtocol
import SyncTestSupport
import Testing

/// A hostile or broken server, played by the proxy answering with raw bytes: every answer the
/// client cannot trust becomes a typed error, without a crash and without being passed on.
@Suite struct HostileAnswerTests {
    static let limit = 64 * 1024
    let update = WriteRequest(articleID: "a1", idempotencyKey: "k1",
                              action: .put(ArticlePayload(title: "T", body: "B"), .revision(5)))

    /// What a send of `write` makes of `answer`.
    func send(_ write: WriteRequest, answeredWith answer: Fault) async throws -> Result<WriteAnswer, TransportError> {
        let server = try TestServer()
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer {
            proxy.stop()
            server.stop()
        }
        proxy.script([answer])
        let transport = server.transport(token: try server.addAccount(), port: proxy.port, timeout: 5, maximumAnswerBytes: Self.limit)
        do {
            return .success(try await transport.send(write))
        } catch {
            return .failure(error)
        }
    }

    func expectInvalid(_ result: Result<WriteAnswer, TransportError>, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .failure(.invalidAnswer) = result else {
            Issue.record("\(comment): expected an invalid answer, got \(result)", sourceLocation: sourceLocation)
            return
        }
    }

    static func article(revision: String, id: String = "a1") -> String {
        #"{"id":"\#(id)","revision":\#(revision),"updatedAt":"2026-03-01T09:30:00Z","title":"T","body":"B"}"#
    }

    @Test func malformedAndMistypedBodiesAreInvalid() async throws {
        expectInvalid(try await send(update, answeredWith: .raw(status: 200, body: #"{"id": "a1", "revision": "#)), "cut JSON")
        expectInvalid(try await send(update, answeredWith: .raw(status: 200, body: Self.article(revision: #""7""#))), "a string revision")
        expectInvalid(try await send(update, answeredWith: .raw(status: 200, body: "[1, 2, 3]")), "an array")
        expectInvalid(try await send(update, answeredWith: .raw(status: 200, body: "")), "no body")
    }

    @Test func answersThatContradictTheRequestAreInvalid() async throws {
        expectInvalid(try await send(update, answeredWith: .raw(status: 200, body: Self.article(revision: "3"))), "revision going backwards")
        expectInvalid(try await send(update, answeredWith: .raw(status: 200, body: Self.article(revision: "5"))), "revision not moving")
        expectInvalid(try await send(update, answeredWith: .raw(status: 200, body: Self.article(revision: "9", id: "a2"))), "another article")
        expectInvalid(try await send(update, answeredWith: .raw(status: 200, headers: ["ETag": #""8""#],
                                                                 body: Self.article(revision: "9"))), "ETag against body")
        expectInvalid(try await send(update, answeredWith: .raw(status: 204, body: "")), "204")
        // A 404 that is not the protocol's problem must not pass for "already deleted".
        let delete = WriteRequest(articleID: "a1", idempotencyKey: "k1", action: .delete(base: 5))
        expectInvalid(try await send(delete, answeredWith: .raw(status: 404, headers: ["Content-Type": "text/html"],
                                                                 body: "<h1>Not Found</h1>")), "an HTML 404 to DELETE")
        expectInvalid(try await send(update, answeredWith: .raw(status: 412, body: "<h1>Precondition Failed</h1>")), "an HTML 412")
    }

    @Test func bodiesOverTheLimitAreRefusedWithoutReadingThemWhole() async throws {
        let big = [UInt8](repeating: UInt8(ascii: " "), count: Self.limit * 4)
        expectInvalid(try await send(update, answeredWith: .rawBytes(status: 200, body: big)), "declared too large")
        let undeclared = Array("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: application/json\r\n\r\n".utf8) + big
        expectInvalid(try await send(update, answeredWith: .raw(undeclared)), "too large, to the end of the connection")
        let boasting = Array("HTTP/1.1 200 OK\r\nContent-Length: 10000000000\r\n\r\n{".utf8)
        expectInvalid(try await send(update, answeredWith: .raw(boasting)), "ten gigabytes declared")
    }

    @Test func redirectsAreNotFollowed() async throws {
        expectInvalid(try await send(update, answeredWith: .raw(status: 307, headers: ["Location": "http://127.0.0.1:1/v1/articles/a1"],
                                                                 body: "")), "a redirect")
    }

    @Test func garbageInsteadOfHTTPIsATransportError() async throws {
        for garbage in ["HELLO\r\n\r\n", "HTTP/1.1 abc OK\r\n\r\n", "\u{0}\u{1}\u{2}"] {
            guard case .failure = try await send(update, answeredWith: .raw(Array(garbage.utf8))) else {
                Issue.record("\(garbage.debugDescription) passed for an answer")
                continue
            }
        }
    }

    @Test func unreadableBodiesOfAnswersDecidedByTheirStatusStillClassify() async throws {
        #expect(try await send(update, answeredWith: .raw(status: 500, headers: ["Content-Type": "text/html"], body: "<h1>oops</h1>")).get()
                == .retry(RetryAdvice(status: 500)))
        #expect(try await send(update, answeredWith: .raw(status: 429, headers: ["Retry-After": "soon"], body: "slow down")).get()
                == .retry(RetryAdvice(status: 429)))
        #expect(try await send(update, answeredWith: .raw(status: 431, body: "<html>too big</html>")).get()
                == .rejected(RequestRejection(reason: .tooLarge, status: 431)))
    }
}
