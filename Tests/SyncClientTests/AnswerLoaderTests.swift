import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SyncProtocol
import SyncTestSupport
import Testing
import QuireTestSupport
@testable import SyncClient

/// The loader's wait for a task's end: the end reaches the waiter whichever comes first. A
/// request made by a task already cancelled (the worker stopped in the middle of a cycle) is
/// cancelled before it waits, and URLSession may report its end before the loader waits: that
/// answer was dropped and the worker's stop waited forever.
@Suite struct AnswerLoaderTests {
    @Test func aTaskThatEndedBeforeItsLoaderWaitedStillAnswers() async throws {
        let loader = AnswerLoader(maximumBytes: 1024)
        let session = URLSession(configuration: .ephemeral, delegate: loader, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: URL(string: "http://127.0.0.1:9/never-sent")!)
        task.cancel()
        // URLSession marks the task completed once its delegate has been told: the end came first.
        #expect(await eventually { task.state == .completed })

        let result = await firstAnswer(within: 30) { await loader.load(task) }
        guard case let .failure(.network(error))? = result else {
            Issue.record("the ended task's answer never reached the loader's waiter: \(String(describing: result))")
            return
        }
        #expect(error.code == .cancelled)
    }

    @Test func requestsOfACancelledCallerEndAsUnknownOutcomes() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let transport = server.transport(token: try server.addAccount())
        for index in 0..<200 {
            let write = WriteRequest(
                articleID: "cancelled-\(index)", idempotencyKey: "key-\(index)",
                action: .put(ArticlePayload(title: "Cancelled \(index)", body: "x"), .absent))
            let result = await firstAnswer(within: 30) { () -> Result<WriteAnswer, TransportError> in
                await Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    do throws(TransportError) { return .success(try await transport.send(write)) } catch { return .failure(error) }
                }.value
            }
            guard case .failure(.outcomeUnknown)? = result else {
                Issue.record("request \(index) of a cancelled caller: \(String(describing: result))")
                return
            }
        }
    }
}

/// What `body` answers, or nil when it has not answered within `seconds`: a wait that never ends
/// fails the test instead of hanging the run (the body is left waiting).
func firstAnswer<T: Sendable>(within seconds: Double, _ body: @escaping @Sendable () async -> T) async -> T? {
    let (answers, continuation) = AsyncStream.makeStream(of: T?.self)
    Task { continuation.yield(await body()) }
    Task {
        try? await Task.sleep(for: .seconds(seconds))
        continuation.yield(nil)
    }
    for await answer in answers { return answer }
    return nil
}
