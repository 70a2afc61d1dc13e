import Foundation
import Glibc
import QuireTestSupport
import SyncClient
import SyncProtocol
import SyncTestSupport
import Testing

/// Each fault of the proxy, between the transport and a real server, arrives as the transport
/// outcome the state machine expects, and the server's state shows what really happened.
@Suite struct FaultTests {
    let content = ArticlePayload(title: "Faults", body: "Through the proxy.")
    let timeout: TimeInterval = 1

    /// A server, a proxy in front of it, and a direct transport for checking the server's state.
    struct Setup {
        let server: TestServer
        let proxy: FaultProxy
        let token: String
        let direct: URLSessionTransport

        /// A transport through the proxy. A fresh one per fault: libcurl resends a request by
        /// itself when a kept-alive connection dies before any answer, which would hide the fault.
        func proxied(timeout: TimeInterval) -> URLSessionTransport {
            server.transport(token: token, port: proxy.port, timeout: timeout)
        }

        /// Every change the server's feed holds.
        func changes() async throws -> [ArticleChange] {
            guard case let .success(page) = try await direct.changes(since: 0, limit: 1000) else {
                throw ProxyError("the feed did not answer")
            }
            return page.changes
        }

        func stop() {
            proxy.stop()
            server.stop()
        }
    }

    func setUp() throws -> Setup {
        let server = try TestServer()
        let token = try server.addAccount()
        return Setup(server: server, proxy: try FaultProxy(upstreamPort: server.port), token: token,
                     direct: server.transport(token: token))
    }

    func create(_ key: String) -> WriteRequest {
        WriteRequest(articleID: "a-\(key)", idempotencyKey: key, action: .put(content, .absent))
    }

    /// The transport error a send through `fault` ends with, or nil when it answered.
    func sendError(_ write: WriteRequest, through fault: Fault, _ setup: Setup) async -> TransportError? {
        setup.proxy.script([fault])
        do {
            _ = try await setup.proxied(timeout: timeout).send(write)
            return nil
        } catch {
            return error
        }
    }

    @Test func aDroppedRequestHasAnUnknownOutcomeAndWasNeverApplied() async throws {
        let setup = try setUp()
        defer { setup.stop() }
        let write = create("drop-request")
        guard case .outcomeUnknown = await sendError(write, through: .dropRequest, setup) else {
            Issue.record("a dropped request must have an unknown outcome")
            return
        }
        #expect(try await setup.changes().isEmpty)
        #expect(try await setup.direct.lookUp(write) == .neverApplied)
    }

    @Test func aDroppedResponseHasAnUnknownOutcomeThatTheLookupResolves() async throws {
        let setup = try setUp()
        defer { setup.stop() }
        let write = create("drop-response")
        guard case .outcomeUnknown = await sendError(write, through: .dropResponse, setup) else {
            Issue.record("a dropped response must have an unknown outcome")
            return
        }
        let changes = try await setup.changes()
        #expect(changes.map(\.id) == [write.articleID])
        guard case let .completed(.applied(.live(article), replayed: true)) = try await setup.direct.lookUp(write) else {
            Issue.record("the lookup must find the applied write")
            return
        }
        #expect(article.revision == changes.first?.revision)
    }

    @Test func aDuplicatedRequestIsAppliedOnce() async throws {
        let setup = try setUp()
        defer { setup.stop() }
        let write = create("duplicate")
        setup.proxy.script([.duplicateRequest])
        guard case .applied(.live, replayed: true) = try await setup.proxied(timeout: timeout).send(write) else {
            Issue.record("the request after its copy gets the copy's stored answer")
            return
        }
        #expect(try await setup.changes().count == 1)

        let concurrent = create("concurrent")
        setup.proxy.script([.concurrentDuplicate])
        switch try await setup.proxied(timeout: timeout).send(concurrent) {
        case .applied(.live, _), .retry(RetryAdvice(status: 409, problemType: .operationInProgress, retryAfter: .seconds(1))):
            break
        case let other:
            Issue.record("a request racing its copy is applied or told the key is running, not \(other)")
        }
        #expect(try await setup.direct.send(concurrent).isApplied)
        #expect(try await setup.changes().count == 2)
    }

    @Test func aRequestDelayedPastTheTimeoutHasAnUnknownOutcomeAndLandsLater() async throws {
        let setup = try setUp()
        defer { setup.stop() }
        let write = create("delay")
        guard case let .outcomeUnknown(failure) = await sendError(write, through: .delay(timeout + 0.5), setup) else {
            Issue.record("a request past its timeout must have an unknown outcome")
            return
        }
        #expect(failure.urlErrorCode == URLError.Code.timedOut.rawValue)
        // The proxy passes the request on after the client gave up; it is applied exactly once.
        var lookup = try await setup.direct.lookUp(write)
        for _ in 0..<100 where lookup == .neverApplied || lookup == .running(retryAfter: nil) {
            try await Task.sleep(for: .milliseconds(50))
            lookup = try await setup.direct.lookUp(write)
        }
        guard case .completed(.applied) = lookup else {
            Issue.record("the delayed write must land, lookup says \(lookup)")
            return
        }
        #expect(try await setup.changes().count == 1)
    }

    @Test func cancellingTheCallerCancelsTheRequestAsAnUnknownOutcome() async throws {
        let setup = try setUp()
        defer { setup.stop() }
        setup.proxy.script([.delay(5)])
        let transport = setup.proxied(timeout: 30)
        let send = Task { try await transport.send(create("cancelled")) }
        try await Task.sleep(for: .milliseconds(200))
        send.cancel()
        // Had the cancel not reached the request, the held request would be answered 201.
        let result = await send.result
        guard case .failure(TransportError.outcomeUnknown) = result else {
            Issue.record("a cancelled write may have been applied: its outcome is unknown, not \(result)")
            return
        }
    }

    @Test func answersOfAnOverloadedServerAskToRetryAfterTheirDelay() async throws {
        let setup = try setUp()
        defer { setup.stop() }
        let transport = setup.proxied(timeout: timeout)
        setup.proxy.script([.answer(status: 429, retryAfter: "2")])
        #expect(try await transport.send(create("limited"))
                == .retry(RetryAdvice(status: 429, problemType: .rateLimited, retryAfter: .seconds(2))))
        setup.proxy.script([.answer(status: 503, retryAfter: "Wed, 21 Oct 2037 07:28:00 GMT")])
        guard case let .retry(advice) = try await transport.send(create("unavailable")),
              case let .date(date)? = advice.retryAfter else {
            Issue.record("503 with an HTTP date")
            return
        }
        #expect(advice.status == 503 && date == Date(timeIntervalSince1970: 2_139_722_880))
        setup.proxy.script([.answer(status: 503, retryAfter: nil)])
        #expect(try await transport.changes(since: 0, limit: nil)
                == .retry(RetryAdvice(status: 503, problemType: .unavailable, retryAfter: nil)))
        #expect(try await setup.changes().isEmpty)
    }

    @Test func aConnectionCutMidBodyHasAnUnknownOutcome() async throws {
        let setup = try setUp()
        defer { setup.stop() }
        let cutRequest = create("cut-request")
        guard case .outcomeUnknown = await sendError(cutRequest, through: .cutRequestMidBody, setup) else {
            Issue.record("a request cut mid-body must have an unknown outcome")
            return
        }
        #expect(try await setup.direct.lookUp(cutRequest) == .neverApplied)

        let cutResponse = create("cut-response")
        guard case .outcomeUnknown = await sendError(cutResponse, through: .cutResponseMidBody, setup) else {
            Issue.record("an answer cut mid-body must have an unknown outcome")
            return
        }
        guard case .completed(.applied) = try await setup.direct.lookUp(cutResponse) else {
            Issue.record("the write whose answer was cut was applied")
            return
        }
        #expect(try await setup.changes().map(\.id) == [cutResponse.articleID])
    }

    @Test func readsThroughFaultsFailWithoutPretendingToSucceed() async throws {
        let setup = try setUp()
        defer { setup.stop() }
        _ = try await setup.direct.send(create("seed"))
        for fault in [Fault.dropRequest, .dropResponse, .cutResponseMidBody] {
            setup.proxy.script([fault])
            await #expect(throws: TransportError.self, "\(fault)") {
                _ = try await setup.proxied(timeout: timeout).changes(since: 0, limit: nil)
            }
        }
        setup.proxy.script([.duplicateRequest])
        guard case let .success(page) = try await setup.proxied(timeout: timeout).changes(since: 0, limit: nil) else {
            Issue.record("a duplicated read still answers")
            return
        }
        #expect(page.changes.count == 1)
    }

    /// A second stop (a test's `defer` after its own) closes nothing: the number of the proxy's
    /// listening socket may belong to a file the process opened since.
    @Test func aSecondStopLeavesWhatReusedTheListenersNumberOpen() throws {
        let number = ReservedDescriptor.number()
        let proxy = try FaultProxy(upstreamPort: try LoopbackSocket.freePort(), listener: LoopbackSocket(listeningWithBacklog: 4).moved(to: number))
        proxy.stop()
        #expect(!ReservedDescriptor.isOpen(number), "the first stop closes the listening socket")

        let file = try ReservedDescriptor.openFile(on: number)
        defer { close(file) }
        proxy.stop()
        #expect(ReservedDescriptor.isOpen(file))
    }
}

extension WriteAnswer {
    var isApplied: Bool {
        if case .applied = self { return true }
        return false
    }
}
