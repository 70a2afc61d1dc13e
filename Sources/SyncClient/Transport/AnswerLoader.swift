import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The URLSession delegate that loads one answer per task, up to a byte limit, without following
/// redirects.
///
/// A completion-handler data task would buffer any body a server sends; this delegate counts the
/// bytes as they arrive and cancels the task past the limit, so a hostile server cannot exhaust
/// memory. `@unchecked Sendable`: URLSession calls it on its delegate queue, and every stored
/// property is immutable or behind the mutex.
final class AnswerLoader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// Why a load ended without an answer.
    enum Failure: Error {
        /// URLSession's error (timeout, connection refused or cut, cancelled).
        case network(URLError)
        /// The body passed the limit.
        case tooLarge(limit: Int)
        /// The task ended without an HTTP response and without an error.
        case noResponse
    }

    /// One task's answer as it arrives. The task may end before its loader waits: a task
    /// cancelled before it was resumed is reported on URLSession's queues while `load` is still on
    /// its way to waiting, so the outcome is kept for the waiter instead of being dropped.
    private struct Loading {
        var continuation: CheckedContinuation<Result<HTTPAnswer, Failure>, Never>?
        var outcome: Result<HTTPAnswer, Failure>?
        var response: HTTPURLResponse?
        var body = Data()
        var isOverLimit = false
    }

    private let maximumBytes: Int
    private let loadings = Mutex<[Int: Loading]>([:])

    /// A loader that refuses bodies over `maximumBytes`.
    init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    /// Runs `task` (of a session whose delegate this is) and answers when it ends, also when it
    /// ended before this call. Cancelling the calling task cancels the request.
    ///
    /// Whichever comes first, the waiter or the task's end, finds the other in `loadings` under
    /// one lock, so the answer cannot slip between them: a calling task already cancelled cancels
    /// `task` before it waits, and URLSession may report that end on its own queue first.
    func load(_ task: URLSessionDataTask) async -> Result<HTTPAnswer, Failure> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ended = loadings.withLock { loadings -> Result<HTTPAnswer, Failure>? in
                    if let outcome = loadings[task.taskIdentifier]?.outcome {
                        loadings[task.taskIdentifier] = nil
                        return outcome
                    }
                    loadings[task.taskIdentifier, default: Loading()].continuation = continuation
                    return nil
                }
                if let ended {
                    continuation.resume(returning: ended)
                } else {
                    task.resume()
                }
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let isOverLimit = response.expectedContentLength > Int64(maximumBytes)
        loadings.withLock { loadings in
            loadings[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse
            if isOverLimit { loadings[dataTask.taskIdentifier]?.isOverLimit = true }
        }
        // Allow, then cancel: FoundationNetworking on Linux traps on the `.cancel` disposition.
        completionHandler(.allow)
        if isOverLimit { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let isOverLimit = loadings.withLock { loadings -> Bool in
            guard var loading = loadings[dataTask.taskIdentifier], !loading.isOverLimit else { return false }
            if loading.body.count + data.count > maximumBytes {
                loading.isOverLimit = true
                loading.body = Data()
            } else {
                loading.body.append(data)
            }
            loadings[dataTask.taskIdentifier] = loading
            return loading.isOverLimit
        }
        if isOverLimit { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // A sync server never redirects; the 3xx itself is the answer, and an invalid one.
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let waiting = loadings.withLock { loadings -> (CheckedContinuation<Result<HTTPAnswer, Failure>, Never>, Result<HTTPAnswer, Failure>)? in
            var loading = loadings.removeValue(forKey: task.taskIdentifier) ?? Loading()
            let outcome = outcome(of: loading, task: task, error: error)
            guard let continuation = loading.continuation else {
                // Nobody waits yet: `load` takes the outcome when it comes.
                loading.outcome = outcome
                loadings[task.taskIdentifier] = loading
                return nil
            }
            return (continuation, outcome)
        }
        if let (continuation, outcome) = waiting { continuation.resume(returning: outcome) }
    }

    /// What the task's end means, from what arrived of its answer.
    private func outcome(of loading: Loading, task: URLSessionTask, error: (any Error)?) -> Result<HTTPAnswer, Failure> {
        if loading.isOverLimit { return .failure(.tooLarge(limit: maximumBytes)) }
        if let error { return .failure(.network(error as? URLError ?? URLError(.unknown))) }
        guard let response = loading.response ?? task.response as? HTTPURLResponse else { return .failure(.noResponse) }
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return .success(HTTPAnswer(status: response.statusCode, headers: headers, body: loading.body))
    }
}
