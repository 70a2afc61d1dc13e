/// The server's answer to a read (`changes`, `snapshot`, `health`), checked and classified.
public enum ReadAnswer<Value: Sendable & Hashable>: Sendable, Hashable {
    /// 200 with a body that passed its checks.
    case success(Value)
    /// 410 on `changes`: the cursor cannot be continued; resync from the snapshot.
    case resyncRequired
    /// 408, 425, 429, 5xx (and 503 from `health`): try again later.
    case retry(RetryAdvice)
    /// Another 4xx: the request is wrong and resending it cannot help.
    case rejected(RequestRejection)
    /// 401: the token is unknown or revoked.
    case accountRejected(detail: String?)
}
