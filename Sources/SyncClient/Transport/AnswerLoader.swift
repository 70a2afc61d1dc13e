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

    private struct Loading {
        var continuation: CheckedContinuation<Result<HTTPAnswer, Failure>, Never>
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

    /// Runs `request` in `session` (whose delegate this is) and answers when it ends. Cancelling
    /// the calling task cancels the request.
    func load(_ request: URLRequest, in session: URLSession) async -> Result<HTTPAnswer, Failure> {
        let task = session.dataTask(with: request)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                loadings.withLock { $0[task.taskIdentifier] = Loading(continuation: continuation) }
                task.resume()
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
        guard let loading = loadings.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        let result: Result<HTTPAnswer, Failure>
        if loading.isOverLimit {
            result = .failure(.tooLarge(limit: maximumBytes))
        } else if let error {
            result = .failure(.network(error as? URLError ?? URLError(.unknown)))
        } else if let response = loading.response ?? task.response as? HTTPURLResponse {
            var headers: [String: String] = [:]
            for (name, value) in response.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            result = .success(HTTPAnswer(status: response.statusCode, headers: headers, body: loading.body))
        } else {
            result = .failure(.noResponse)
        }
        loading.continuation.resume(returning: result)
    }
}
