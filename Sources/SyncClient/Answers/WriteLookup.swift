/// The answer to `GET /v1/operations/{key}` for a write whose answer was lost.
public enum WriteLookup: Sendable, Hashable {
    /// The key's first request finished; this is its stored answer, exactly as a resend would get
    /// it again.
    case completed(WriteAnswer)
    /// The key's first request is still running; ask again shortly.
    case running(retryAfter: RetryAfter?)
    /// 404: the server never stored the key, so the write was not applied. Resend it under the
    /// same key.
    case neverApplied
    /// The lookup itself was not answered now (429, 5xx): ask again later.
    case retry(RetryAdvice)
    /// The lookup was refused for good (a client bug such as a malformed key). A resend under
    /// the same key is still safe and resolves the outcome.
    case rejected(RequestRejection)
    /// 401: the token is unknown or revoked.
    case accountRejected(detail: String?)
}
