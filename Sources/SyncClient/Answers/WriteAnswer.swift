import SyncProtocol

/// The server's answer to a write, read, checked and classified (`AnswerClass`).
public enum WriteAnswer: Sendable, Hashable {
    /// 200 or 201 (or 404 to a `DELETE`: already gone). `replayed`: the server answered from the
    /// idempotency key's stored answer (`Idempotent-Replayed: true`).
    case applied(ServerVersion, replayed: Bool)
    /// 412: the base is stale. `current` is the server's version (content or tombstone), nil when
    /// it holds nothing under the ID.
    case conflict(current: ArticleChange?)
    /// 409 (the key's first request is running), 408, 425, 429, 5xx: nothing was written; send
    /// again under the same key later.
    case retry(RetryAdvice)
    /// Any other 4xx: resending cannot help.
    case rejected(RequestRejection)
    /// 401: the token is unknown or revoked.
    case accountRejected(detail: String?)
}
