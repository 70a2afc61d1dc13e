import SyncProtocol

/// A retryable answer and what the server said about waiting.
public struct RetryAdvice: Sendable, Hashable {
    /// The HTTP status (409, 429, 500, 503, …).
    public var status: Int
    /// The problem type, when the server sent one.
    public var problemType: ProblemType?
    /// The server's `Retry-After`, when it sent a valid one.
    public var retryAfter: RetryAfter?

    /// Advice from an answer with `status`.
    public init(status: Int, problemType: ProblemType? = nil, retryAfter: RetryAfter? = nil) {
        self.status = status
        self.problemType = problemType
        self.retryAfter = retryAfter
    }

    /// 409 on a write: the first request with the key is still running, so the wait should be
    /// short rather than grow with the operation's failures.
    public var isOperationInProgress: Bool { status == 409 }
}
